import { expect, test } from 'vitest';
import { greetingFor, readGreetings } from './greetings.ts';

test('a visitor reads the greeting in their language, else the greeting as written, else none', () => {
  const site = { greeting: 'Hi! How can we help?', greetings: { de: 'Hallo! Wie können wir helfen?', ar: 'مرحبا!' } };
  expect(greetingFor(site, 'de')).toBe('Hallo! Wie können wir helfen?');
  expect(greetingFor(site, 'de-AT')).toBe('Hallo! Wie können wir helfen?');
  expect(greetingFor(site, 'ar')).toBe('مرحبا!');
  expect(greetingFor(site, 'fr')).toBe('Hi! How can we help?');
  expect(greetingFor({ greeting: null, greetings: null }, 'fr')).toBeNull();
});

test('a stored value gives only its greetings with a language code for key', () => {
  expect(readGreetings({ de: 'Hallo!', fr: 3, 'not a code': 'x', es: '  ' })).toEqual({ de: 'Hallo!' });
  expect(readGreetings(['Hallo!'])).toBeNull();
  expect(readGreetings(null)).toBeNull();
});
