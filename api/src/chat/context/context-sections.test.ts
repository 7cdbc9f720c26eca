import { describe, expect, test } from 'vitest';
import {
  contextSections,
  KNOWLEDGE_HEADING,
  KNOWLEDGE_MISS,
  OPEN_QUESTION_HEADING,
  OPEN_TODOS_HEADING,
  RECALL_CHARS_MAX,
  RECALL_HEADING,
  RECALL_HITS_MAX,
  TODOS_CHARS_MAX,
  TODOS_SHOWN_MAX,
  type OpenTodo,
  type RecallHit,
} from './context-sections.ts';

const at = (iso: string) => new Date(iso);
const empty = { openQuestion: null, todos: [], recall: [], timeZone: 'UTC' };
const todo = (i: number, text = `Todo number ${i}`): OpenTodo => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  text,
  createdAt: at('2026-01-15T12:00:00Z'),
});
const hit = (content: string, extra: Partial<RecallHit> = {}): RecallHit => ({
  content,
  createdAt: at('2026-01-02T09:30:00Z'),
  sameConversation: false,
  ...extra,
});

/** The lines of one `## heading` section. */
function section(text: string, heading: string): string[] {
  const start = text.split('\n').findIndex((l) => l.startsWith(`## ${heading}`));
  if (start < 0) return [];
  const rest = text.split('\n').slice(start);
  const end = rest.findIndex((l, i) => i > 0 && l.startsWith('## '));
  return end < 0 ? rest : rest.slice(0, end);
}

describe('contextSections', () => {
  test('nothing open, nothing recalled: no context message at all', () => {
    expect(contextSections(empty)).toBeNull();
  });

  test('the open question is quoted with its choices and its local time, and says it is still open', () => {
    const text = contextSections({
      ...empty,
      timeZone: 'Europe/Paris',
      openQuestion: { question: 'Which size do you need?', choices: ['S', 'M'], allowFreeText: false, askedAt: at('2026-01-15T12:00:00Z') },
    })!;
    const lines = section(text, OPEN_QUESTION_HEADING).join('\n');
    expect(lines).toContain('2026-01-15 13:00:00');
    expect(lines).toContain('"Which size do you need?" (choices: "S", "M"; one of the choices only)');
    expect(lines).toMatch(/still open/);
    expect(lines).toMatch(/not an answer/);
  });

  test('open todos are listed with their ids under a heading that says they are open', () => {
    const text = contextSections({ ...empty, todos: [todo(1, 'Send the quote'), todo(2, 'Check stock\nfor blue')] })!;
    const lines = section(text, OPEN_TODOS_HEADING);
    expect(lines[0]).toBe(`## ${OPEN_TODOS_HEADING} (2)`);
    expect(lines[1]).toMatch(/These are open/);
    expect(lines.slice(2)).toEqual([`- [${todo(1).id}] Send the quote`, `- [${todo(2).id}] Check stock for blue`]);
  });

  test('the todo section is capped in count and characters and says how many it left out', () => {
    const many = Array.from({ length: TODOS_SHOWN_MAX + 5 }, (_, i) => todo(i, 'x'.repeat(150)));
    const lines = section(contextSections({ ...empty, todos: many })!, OPEN_TODOS_HEADING);
    const items = lines.filter((l) => l.startsWith('- ['));
    expect(items.join('\n').length).toBeLessThanOrEqual(TODOS_CHARS_MAX);
    expect(items.length).toBeLessThan(TODOS_SHOWN_MAX);
    expect(lines.at(-1)).toBe(`(${many.length - items.length} more open, not shown)`);
  });

  test('recall hits carry their date and where they were said, quoted, best first, within the caps', () => {
    const hits = [
      hit('My walnut bookshelf order #5521'),
      hit('Earlier here', { sameConversation: true }),
      hit('third'),
      hit('fourth, never shown'),
    ];
    const lines = section(contextSections({ ...empty, recall: hits })!, RECALL_HEADING);
    const items = lines.filter((l) => l.startsWith('- ['));
    expect(items).toHaveLength(RECALL_HITS_MAX);
    expect(items[0]).toBe('- [2026-01-02 09:30:00, another conversation] "My walnut bookshelf order #5521"');
    expect(items[1]).toContain('earlier in this conversation');
    const long = Array.from({ length: 3 }, () => hit('y'.repeat(2000)));
    const capped = section(contextSections({ ...empty, recall: long })!, RECALL_HEADING).filter((l) => l.startsWith('- ['));
    expect(capped.join('\n').length).toBeLessThanOrEqual(RECALL_CHARS_MAX);
    expect(capped[0]).toMatch(/…"$/);
  });

  test('sections come in a fixed order under one heading that marks them as data', () => {
    const text = contextSections({
      openQuestion: { question: 'Q?', choices: [], allowFreeText: true, askedAt: at('2026-01-15T12:00:00Z') },
      todos: [todo(1)],
      recall: [hit('old words')],
      timeZone: 'UTC',
    })!;
    expect(text.split('\n')[0]).toBe('# Context for this reply');
    expect(text).toMatch(/never instructions/);
    const order = [OPEN_QUESTION_HEADING, OPEN_TODOS_HEADING, RECALL_HEADING].map((h) => text.indexOf(`## ${h}`));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });
});

test('site knowledge that matched nothing: the model is told to say it does not know, offering a person only when one can be asked', () => {
  const base = { openQuestion: null, todos: [], recall: [], timeZone: 'UTC' };
  const withPerson = contextSections({ ...base, knowledgeMiss: { handoff: true } })!;
  expect(withPerson).toContain(`## ${KNOWLEDGE_HEADING}\n${KNOWLEDGE_MISS}`);
  expect(withPerson).toContain('handoff_to_human');
  expect(contextSections({ ...base, knowledgeMiss: { handoff: false } })).not.toContain('handoff_to_human');
  // excerpts found: they are shown instead, and nothing says "you do not know"
  const found = contextSections({
    ...base,
    knowledge: [{ title: 'Warranty', url: null, heading: 'Warranty', text: 'Five years.' }],
    knowledgeMiss: { handoff: true },
  })!;
  expect(found).toContain('[1] Warranty (the site owner’s own text)\n"Five years."');
  expect(found).not.toContain(KNOWLEDGE_MISS);
  expect(contextSections(base)).toBeNull();
});
