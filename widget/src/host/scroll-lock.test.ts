/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { lockPageScroll } from './scroll-lock.ts';

describe('page scroll lock', () => {
  afterEach(() => {
    document.documentElement.style.removeProperty('overflow');
    document.body.style.removeProperty('overflow');
  });

  it('stops the page scrolling, then puts back exactly what the page had inline', () => {
    document.body.style.setProperty('overflow', 'scroll');
    const release = lockPageScroll();
    expect(getComputedStyle(document.documentElement).overflow).to.equal('hidden');
    expect(getComputedStyle(document.body).overflow).to.equal('hidden');
    release();
    expect(document.body.style.getPropertyValue('overflow')).to.equal('scroll');
    expect(document.documentElement.getAttribute('style') ?? '').to.not.contain('overflow');
  });
});
