/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { conversation, message } from '../test-support/fake-api.ts';
import { replyComing } from './reply-coming.ts';

const c = conversation({ id: 'c1' });
const sent = { ...message({ conversationId: 'c1', role: 'user', content: 'Hi', state: 'pending' }), pending: true };

describe('reply coming', () => {
  it('is shown from the moment of a send, before the server has it', () => {
    expect(replyComing({ ...c, live: false }, [sent], undefined, 'connected')).to.be.true;
  });

  it('is shown while the server says the conversation is live, until the reply streams', () => {
    expect(replyComing({ ...c, live: true }, [], undefined, 'connected')).to.be.true;
    expect(replyComing({ ...c, live: true }, [], { runId: 'r1', text: '' }, 'connected')).to.be.false;
  });

  it('is not shown for a send held back or refused, offline, or while a person holds the conversation', () => {
    expect(replyComing({ ...c, live: false }, [{ ...sent, retryAt: Date.now() + 5000 }], undefined, 'connected')).to.be.false;
    expect(replyComing({ ...c, live: false }, [{ ...sent, pending: false, sendError: 'Not sent' }], undefined, 'connected')).to.be.false;
    expect(replyComing({ ...c, live: false }, [sent], undefined, 'offline')).to.be.false;
    expect(replyComing({ ...c, live: true, heldBy: 'Ana' }, [sent], undefined, 'connected')).to.be.false;
    expect(replyComing({ ...c, live: false }, [], undefined, 'connected')).to.be.false;
  });
});
