/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { t } from '../i18n/panel-strings.ts';
import { headingLabel } from './heading-label.ts';

const base = { private: false, heldBy: null, waitingForPerson: false };

describe('headingLabel', () => {
  it('says who answers: the operator holding it, else a person awaited, else the latest message’s label', () => {
    expect(headingLabel({ ...base, heldBy: 'Ana' }, 'Check-in', t)).to.equal('Operator — Ana');
    expect(headingLabel({ ...base, waitingForPerson: true }, 'Check-in', t)).to.equal('Waiting for a person');
    expect(headingLabel({ ...base, heldBy: 'Ana', waitingForPerson: true }, null, t), 'a takeover ends the wait').to.equal(
      'Operator — Ana',
    );
    expect(headingLabel(base, 'Check-in', t)).to.equal('Check-in');
    expect(headingLabel(base, null, t)).to.be.null;
  });

  it('puts "Private" first and combines it with the others', () => {
    expect(headingLabel({ ...base, private: true }, null, t)).to.equal('Private');
    expect(headingLabel({ ...base, private: true, heldBy: 'Ana' }, null, t)).to.equal('Private · Operator — Ana');
    expect(headingLabel({ ...base, private: true, waitingForPerson: true }, null, t)).to.equal('Private · Waiting for a person');
    expect(headingLabel({ ...base, private: true }, 'Because you viewed Pricing', t)).to.equal('Private · Because you viewed Pricing');
  });

  it('says nothing without an open conversation, or for an older server’s view without the fields', () => {
    expect(headingLabel(undefined, 'Check-in', t)).to.be.null;
    expect(headingLabel({}, null, t)).to.be.null;
  });
});
