/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { LOCALES } from './catalog.ts';
import { en, type Messages } from './en.ts';

/** Every string of a bundle, counted ones at the counts whose forms differ (1, 2, 5, 11, 100). */
function texts(m: Messages): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (key: string, v: unknown) => {
    if (typeof v === 'string') out[key] = v;
    else if (typeof v === 'function') for (const n of [1, 2, 5, 11, 100]) out[`${key}(${n})`] = (v as (n: number) => string)(n);
    else for (const [k, inner] of Object.entries(v as object)) add(`${key}.${k}`, inner);
  };
  for (const [k, v] of Object.entries(m)) add(k, v);
  return out;
}

describe('language files', () => {
  it('are the seven docs/site-owners/languages.md lists, found from the folder', () => {
    expect(Object.keys(LOCALES).sort()).to.deep.equal(['ar', 'de', 'es', 'fr', 'he', 'ja', 'pt']);
  });

  for (const code of Object.keys(LOCALES)) {
    it(`${code}: fills every key, counts included, and translates nearly all of them`, async () => {
      const mine = texts(await LOCALES[code]!());
      const english = texts(en);
      expect(Object.keys(mine).sort()).to.deep.equal(Object.keys(english).sort());
      for (const [key, text] of Object.entries(mine)) {
        expect(text.trim(), key).to.not.equal('');
        // from 3 on, as a number (Arabic and Hebrew write "one" and "two" as words, with the noun's form)
        const count = Number(/\((\d+)\)$/.exec(key)?.[1] ?? 0);
        if (count > 2) expect(text, `${key} shows its count`).to.contain(String(count));
      }
      // a few words are the same in both languages ("Chat", "Live", "Offline", "Message")
      const same = Object.keys(mine).filter((k) => mine[k] === english[k]);
      expect(same.length, same.join(', ')).to.be.at.most(6);
    });
  }
});
