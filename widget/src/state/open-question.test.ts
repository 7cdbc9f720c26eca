/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { openQuestion } from './open-question.ts';
import { conversation, message } from '../test-support/fake-api.ts';
import type { InputRequestView, ThreadMessage } from './types.ts';

const request: InputRequestView = {
  id: 'q1',
  question: 'Which size?',
  choices: ['S', 'M'],
  allowFreeText: true,
  createdAt: '2026-01-01T10:00:00.000Z',
};
const asking = (c: { id: string }, status: 'open' | 'answered' = 'open') =>
  message({
    conversationId: c.id,
    content: request.question,
    inputRequest: { id: request.id, choices: request.choices, allowFreeText: true, status },
  });

describe('openQuestion', () => {
  it('is the newest open request of the thread, matching the conversation', () => {
    const c = conversation({ inputNeeded: true, inputRequest: request });
    expect(openQuestion(c, [asking(c)])).to.deep.equal({ id: 'q1', allowFreeText: true, answering: false });
  });

  it('is closed once the message says answered, or the conversation reports no (or another) open request', () => {
    const c = conversation({ inputRequest: request });
    expect(openQuestion(c, [asking(c, 'answered')])).to.be.null;
    expect(openQuestion({ ...c, inputRequest: null }, [asking(c)])).to.be.null;
    expect(openQuestion({ ...c, inputRequest: { ...request, id: 'q2' } }, [asking(c)])).to.be.null;
  });

  it('trusts the message when the server does not report the conversation field', () => {
    const { inputRequest: _, ...c } = conversation(); // an API from before input requests
    expect(openQuestion(c, [asking(c)])?.id).to.equal('q1');
  });

  it('says answering while the visitor answer is pending, not after it failed', () => {
    const c = conversation({ inputRequest: request });
    const answer: ThreadMessage = { ...message({ conversationId: c.id, role: 'user', seq: '' }), pending: true, answersRequestId: 'q1' };
    expect(openQuestion(c, [asking(c), answer])?.answering).to.be.true;
    expect(openQuestion(c, [asking(c), { ...answer, pending: false, sendError: 'Not sent' }])?.answering).to.be.false;
  });
});
