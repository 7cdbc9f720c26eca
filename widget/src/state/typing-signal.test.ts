/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { TypingSignal } from './typing-signal.ts';

function setup(everyMs = 60_000) {
  const signals: [string, string][] = [];
  const typing = new TypingSignal(async (c, after) => void signals.push([c, after]), everyMs);
  return { typing, signals };
}

describe('typing signal', () => {
  it('signals nothing for the typing of a message that is not sent yet', () => {
    const { typing, signals } = setup();
    typing.typed('c1');
    typing.typed('c1');
    expect(signals).to.deep.equal([]);
  });

  it('signals typing after a send once the server has the send, naming it', () => {
    const { typing, signals } = setup();
    typing.sent('c1', 'm1');
    typing.typed('c1');
    // the server does not have m1 yet: the signal waits for its acknowledgement
    expect(signals).to.deep.equal([]);
    typing.delivered('c1', 'm1');
    expect(signals).to.deep.equal([['c1', 'm1']]);
  });

  it('does not signal on acknowledgement when the visitor has not typed since the send', () => {
    const { typing, signals } = setup();
    typing.sent('c1', 'm1');
    typing.delivered('c1', 'm1');
    expect(signals).to.deep.equal([]);
  });

  it('throttles: many keystrokes, one signal per interval', () => {
    const { typing, signals } = setup();
    typing.sent('c1', 'm1');
    typing.delivered('c1', 'm1');
    for (let i = 0; i < 20; i++) typing.typed('c1');
    expect(signals).to.have.length(1);
  });

  it('names the newest send, and stops once a run claimed it', () => {
    const { typing, signals } = setup(0);
    typing.sent('c1', 'm1');
    typing.delivered('c1', 'm1');
    typing.sent('c1', 'm2');
    // a late acknowledgement of the older send changes nothing
    typing.delivered('c1', 'm1');
    typing.typed('c1');
    expect(signals).to.deep.equal([]);
    typing.delivered('c1', 'm2');
    expect(signals).to.deep.equal([['c1', 'm2']]);
    typing.claimed('c1');
    typing.typed('c1');
    expect(signals).to.have.length(1);
  });

  it('keeps each conversation apart', () => {
    const { typing, signals } = setup(0);
    typing.sent('c1', 'm1');
    typing.delivered('c1', 'm1');
    typing.typed('c2');
    expect(signals).to.deep.equal([]);
  });
});
