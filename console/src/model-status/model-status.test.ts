/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './model-status.ts';
import type { HeedModelStatus } from './model-status.component.ts';
import { fakeConsoleApi, owner } from '../test-support/fake-console-api.ts';
import type { ModelStatus } from '../state/contract.ts';

const noTools = {
  flag: 'no-tools',
  parameter: 'tools',
  fallback: 'answers without tools: questions and todos as plain text',
  consequence:
    "Questions to the visitor, todos and the model's own hand-off to a person are off: the model answers in plain text. Visitors can still ask for a person with the widget's button.",
  featuresOff: true,
  source: 'learned' as const,
  providerMessage: 'registry.ollama.ai/library/gemma:2b does not support tools',
  learnedAt: '2026-12-01T10:00:00.000Z',
  seenAt: '2026-12-02T10:00:00.000Z',
};
const declared = {
  ...noTools,
  flag: 'no-stream-options',
  parameter: 'stream_options',
  consequence: 'Streamed replies report no token counts.',
  source: 'declared' as const,
  providerMessage: null,
  learnedAt: null,
  seenAt: null,
};

async function shown(status: ModelStatus) {
  const fake = fakeConsoleApi({ modelStatus: async () => status });
  const el = await fixture<HeedModelStatus>(html`<heed-model-status .api=${fake.api} .me=${owner}></heed-model-status>`);
  const root = el.shadowRoot!;
  await waitUntil(() => root.querySelector('[data-server]'), 'status shown');
  return { el, root };
}

describe('heed-model-status', () => {
  it('names the features off for a model, why, in the provider’s words, and what still works', async () => {
    const { root } = await shown({
      server: 'http://127.0.0.1:11434/v1',
      models: [
        { model: 'llama3', usedBy: ['Replies (deployment default)', 'Titles'], flags: [declared] },
        { model: 'gemma:2b', usedBy: ['Outdoor shop'], flags: [declared, noTools] },
      ],
    });
    expect(root.querySelector('h2')!.textContent).to.equal('Model server');
    const gemma = root.querySelector('[data-model="gemma:2b"]')!;
    expect(gemma.textContent).to.contain('Used by: Outdoor shop').and.contain('Features off for this model: 2');
    const tools = gemma.querySelector('[data-flag=no-tools]')!;
    expect(tools.querySelector('strong')!.textContent).to.equal('Off: tools');
    expect(tools.textContent).to.contain("Visitors can still ask for a person with the widget's button.");
    expect(tools.textContent).to.contain('The server said: “registry.ollama.ai/library/gemma:2b does not support tools”');
    expect(gemma.querySelector('[data-flag=no-stream-options]')!.textContent).to.contain('Set by OPENAI_COMPAT=no-stream-options.');
  });

  it('says every feature is on for a model with nothing refused, and which models are not in use', async () => {
    const { root } = await shown({
      server: 'https://api.openai.com/v1',
      models: [
        { model: 'gpt-4o-mini', usedBy: ['Titles'], flags: [] },
        { model: 'old', usedBy: [], flags: [noTools] },
      ],
    });
    expect(root.querySelector('[data-model="gpt-4o-mini"]')!.textContent).to.contain('Every feature is on.');
    expect(root.querySelector('[data-model="old"]')!.textContent).to.contain('Not in use now');
  });

  it('is accessible', async () => {
    const { el } = await shown({
      server: 'http://127.0.0.1:11434/v1',
      models: [{ model: 'gemma:2b', usedBy: ['Outdoor shop'], flags: [noTools] }],
    });
    await expect(el).shadowDom.to.be.accessible();
  });
});
