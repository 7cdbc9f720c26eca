/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { pickLocale } from './pick-locale.ts';

const AVAILABLE = ['ar', 'de', 'es', 'fr', 'he', 'ja', 'pt'];

describe('pickLocale', () => {
  it('takes the data-locale option before the browser languages', () => {
    expect(pickLocale(['de', 'fr-FR', 'en'], AVAILABLE)).to.deep.equal({ bundle: 'de', tag: 'de', dir: 'ltr' });
  });

  it('falls back from a region to its language and keeps the region for Intl (pt-BR → pt)', () => {
    expect(pickLocale(['pt-BR'], AVAILABLE)).to.deep.equal({ bundle: 'pt', tag: 'pt-BR', dir: 'ltr' });
    expect(pickLocale(['DE-at'], AVAILABLE)).to.deep.equal({ bundle: 'de', tag: 'de-AT', dir: 'ltr' });
  });

  it('skips languages it has no strings for and tags that are not tags, then uses the next browser language', () => {
    expect(pickLocale([undefined, 'not a tag!', 'ko-KR', 'zh-Hant-TW', 'fr-CA'], AVAILABLE)).to.deep.equal({
      bundle: 'fr',
      tag: 'fr-CA',
      dir: 'ltr',
    });
  });

  it('stops at English when the visitor lists it before a language it has', () => {
    expect(pickLocale(['en-GB', 'de'], AVAILABLE)).to.deep.equal({ bundle: 'en', tag: 'en-GB', dir: 'ltr' });
  });

  it('is English, left to right, when nothing matches', () => {
    expect(pickLocale(['ko', 'it'], AVAILABLE)).to.deep.equal({ bundle: 'en', tag: 'en', dir: 'ltr' });
    expect(pickLocale([], AVAILABLE)).to.deep.equal({ bundle: 'en', tag: 'en', dir: 'ltr' });
  });

  it('writes Arabic and Hebrew right to left, the legacy code iw included', () => {
    expect(pickLocale(['ar-EG'], AVAILABLE)).to.deep.equal({ bundle: 'ar', tag: 'ar-EG', dir: 'rtl' });
    expect(pickLocale(['iw'], AVAILABLE)).to.deep.equal({ bundle: 'he', tag: 'he', dir: 'rtl' });
  });
});
