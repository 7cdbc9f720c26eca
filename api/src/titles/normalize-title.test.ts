import { describe, expect, test } from 'vitest';
import { normalizeTitle } from './normalize-title.ts';

const codePoints = (s: string) => Array.from(s).length;

describe('normalizeTitle', () => {
  test.each([
    ['a plain title stays as it is', 'Shipping to Canada', 'Shipping to Canada'],
    ['surrounding straight quotes go', '"Shipping to Canada"', 'Shipping to Canada'],
    ['surrounding single quotes go', "'Shipping to Canada'", 'Shipping to Canada'],
    ['curly quotes go', '“Shipping to Canada”', 'Shipping to Canada'],
    ['guillemets go', '« Livraison au Canada »', 'Livraison au Canada'],
    ['German low-high quotes go', '„Versand nach Kanada“', 'Versand nach Kanada'],
    ['CJK corner brackets go', '「カナダへの配送」', 'カナダへの配送'],
    ['a "Title:" label goes', 'Title: Shipping to Canada', 'Shipping to Canada'],
    ['the label in any case goes', 'TITLE : Shipping to Canada', 'Shipping to Canada'],
    ['a label inside quotes goes', '"Title: Shipping to Canada"', 'Shipping to Canada'],
    ['quotes inside a label go', 'Title: "Shipping to Canada"', 'Shipping to Canada'],
    ['a bold Markdown label goes', '**Title:** Shipping to Canada', 'Shipping to Canada'],
    ['a French label goes', 'Titre : Livraison au Canada', 'Livraison au Canada'],
    ['"Conversation title -" goes', 'Conversation title - Refund request', 'Refund request'],
    ['a Markdown heading marker goes', '# Shipping to Canada', 'Shipping to Canada'],
    ['bold and italics go', '**Shipping** to _Canada_', 'Shipping to Canada'],
    ['inline code keeps its text', 'Fixing `npm install` errors', 'Fixing npm install errors'],
    ['a link keeps its text', 'Help with [billing](https://example.com/billing)', 'Help with billing'],
    ['a list marker goes', '- Shipping to Canada', 'Shipping to Canada'],
    ['underscores inside words stay', 'Renaming my_table_name', 'Renaming my_table_name'],
    ['end punctuation goes', 'Shipping to Canada.', 'Shipping to Canada'],
    ['a question mark at the end goes', 'Can I return shoes?', 'Can I return shoes'],
    ['several end marks go', 'Refund!!!...', 'Refund'],
    ['an ellipsis goes', 'Refund questions…', 'Refund questions'],
    ['CJK end punctuation goes', '退货政策。', '退货政策'],
    ['whitespace collapses', '  Shipping \t to\u00a0\u00a0Canada  ', 'Shipping to Canada'],
    ['only the first non-empty line counts', '\n\nShipping to Canada\nThis title covers the question.', 'Shipping to Canada'],
    ['a code fence line is skipped', '```\nShipping to Canada\n```', 'Shipping to Canada'],
    ['zero-width and bidi controls go', 'Ship\u200Bping to \u202ECanada', 'Shipping to Canada'],
    ['emoji beside words stay', '🚚 Shipping to Canada', '🚚 Shipping to Canada'],
    ['a leading dot of a name stays', '.NET upgrade', '.NET upgrade'],
    ['numbers alone are a title', '2024', '2024'],
  ])('%s', (_what, raw, expected) => {
    expect(normalizeTitle(raw)).toBe(expected);
  });

  test.each([
    ['an empty string', ''],
    ['whitespace only', ' \n\t '],
    ['quotes only', '""'],
    ['punctuation only', '...!?'],
    ['emoji only', '🎉🎉'],
    ['a flag and a family emoji only', '🇫🇷 👩‍👩‍👧'],
    ['a label with nothing after it', 'Title:'],
    ['a quoted empty label', '"Title: "'],
    ['Markdown markers only', '**__**'],
    ['a refusal', "I'm sorry, but I can't help with that."],
    ['a chatty preamble', 'Here is a title for this conversation'],
    ['not a string', 42],
    ['null', null],
  ])('%s is rejected', (_what, raw) => {
    expect(normalizeTitle(raw)).toBeNull();
  });

  test('a long title is cut on a word boundary to at most 64 characters, without end punctuation', () => {
    const raw = 'Questions about shipping a very large parcel to Canada, customs fees, and delivery times';
    const title = normalizeTitle(raw)!;
    expect(codePoints(title)).toBeLessThanOrEqual(64);
    expect(title).toBe('Questions about shipping a very large parcel to Canada, customs');
    expect(raw.startsWith(title)).toBe(true);
    expect(raw[title.length]).toBe(' ');
  });

  test('a long title without spaces is cut between characters, never inside an emoji', () => {
    const title = normalizeTitle('退'.repeat(70) + '👩‍👩‍👧'.repeat(10))!;
    expect(title).toBe('退'.repeat(64));
    const emoji = normalizeTitle(`A ${'👩‍👩‍👧'.repeat(30)}`)!;
    expect(codePoints(emoji)).toBeLessThanOrEqual(64);
    expect(emoji.replace('A ', '').replaceAll('👩‍👩‍👧', '')).toBe('');
  });

  test('a title of exactly 64 characters is kept whole', () => {
    const raw = `${'a'.repeat(30)} ${'b'.repeat(33)}`;
    expect(normalizeTitle(raw)).toBe(raw);
  });
});
