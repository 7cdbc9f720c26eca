/// <reference types="mocha" />
/// <reference types="vite/client" />
import { expect } from '@open-wc/testing';
import { LOCALES } from '../i18n/catalog.ts';
import { useLocale } from '../i18n/i18n.ts';
import { pickLocale } from '../i18n/pick-locale.ts';
import { en, type AttachMessages } from './en.ts';
import { refusalText } from './refusal.ts';
import { at, stringsReady } from './strings.ts';

const files = import.meta.glob<{ default: AttachMessages }>('./locales/*.ts');

/** Every string, functions called with a file name, a size, and counts whose forms differ (1, 2, 5, 11, 100). */
function texts(m: AttachMessages): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(m)) {
    if (typeof v === 'string') out[key] = v;
    else if (key === 'tooMany' || key === 'rateLimited')
      for (const n of [1, 2, 5, 11, 100]) out[`${key}(${n})`] = (v as (name: string, n: number) => string)('photo.png', n);
    else out[key] = (v as (...args: string[]) => string)('photo.png', '2 MB', '1 MB');
  }
  return out;
}

const choose = (tag: string) => useLocale(pickLocale([tag], Object.keys(LOCALES)));

describe('the strings of attachments', () => {
  afterEach(() => choose('en'));

  it('exist in every language the widget speaks, one file each', () => {
    const mine = Object.keys(files).map((path) => path.slice(10, -3));
    expect(mine.sort()).to.deep.equal(Object.keys(LOCALES).sort());
  });

  for (const path of Object.keys(files)) {
    it(`${path.slice(10, -3)}: fills every key, counts and names included, and translates nearly all of them`, async () => {
      const mine = texts((await files[path]!()).default);
      const english = texts(en);
      expect(Object.keys(mine).sort()).to.deep.equal(Object.keys(english).sort());
      for (const [key, text] of Object.entries(mine)) {
        expect(text.trim(), key).to.not.equal('');
        const count = Number(/\((\d+)\)$/.exec(key)?.[1] ?? 0);
        if (count > 2) expect(text, `${key} shows its count`).to.contain(String(count));
        if (typeof (en as Record<string, unknown>)[key.replace(/\(.*/, '')] === 'function')
          expect(text, `${key} names the file`).to.contain('photo.png');
      }
      const same = Object.keys(mine).filter((k) => mine[k] === english[k]);
      expect(same.length, same.join(', ')).to.be.at.most(1);
    });
  }

  it('follow the widget’s language, sizes and lists included', async () => {
    await choose('de');
    await stringsReady();
    expect(at().remove('foto.png')).to.equal('foto.png entfernen');
    expect(refusalText('video.mp4', { code: 'file_too_large', size: 50_331_648, limitBytes: 10_485_760 }, ['png'])).to.equal(
      'video.mp4 ist 48 MB groß; Dateien dürfen höchstens 10 MB groß sein.',
    );
    expect(refusalText('plan.svg', { code: 'file_type_refused', detected: 'SVG', image: true }, ['png', 'pdf', 'text'])).to.equal(
      'plan.svg kann nicht angehängt werden: SVG-Bilder werden nicht angenommen. Angehängt werden können: PNG, PDF oder Text.',
    );
    await choose('en');
    await stringsReady();
    expect(refusalText('plan.svg', { code: 'file_type_refused', detected: 'SVG', image: true }, ['png', 'pdf', 'text'])).to.equal(
      "plan.svg can't be attached: SVG images aren't accepted. You can attach PNG, PDF, or text files.",
    );
  });
});
