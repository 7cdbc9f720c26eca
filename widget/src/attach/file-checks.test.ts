/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { ATTACHMENTS_ON } from '../test-support/fake-api.ts';
import { checkFile } from './file-checks.ts';
import { fileSize } from './file-size.ts';

const MB = 1024 * 1024;
const file = (name: string, type: string, bytes = 100) => new File([new Uint8Array(bytes)], name, { type });
const none = { count: 0, bytes: 0 };

describe('the checks before an upload', () => {
  it('takes the kinds the site takes, by type or, without one, by the name’s ending', () => {
    for (const f of [file('a.png', 'image/png'), file('b.JPG', ''), file('c.pdf', 'application/pdf'), file('notes.md', 'text/markdown')])
      expect(checkFile(f, ATTACHMENTS_ON, none), f.name).to.equal(null);
  });

  it('refuses a kind the site turned off, and images, video, audio and HTML outside the kinds, naming the format', () => {
    const pngOnly = { ...ATTACHMENTS_ON, kinds: ['png' as const] };
    expect(checkFile(file('doc.pdf', 'application/pdf'), pngOnly, none)).to.deep.equal({
      code: 'file_type_refused',
      detected: 'PDF',
      image: false,
    });
    expect(checkFile(file('plan.svg', 'image/svg+xml'), ATTACHMENTS_ON, none)).to.deep.equal({
      code: 'file_type_refused',
      detected: 'SVG',
      image: true,
    });
    expect(checkFile(file('clip', 'video/mp4'), ATTACHMENTS_ON, none)).to.deep.equal({
      code: 'file_type_refused',
      detected: 'MP4',
      image: false,
    });
    expect(checkFile(file('page.html', 'text/html'), ATTACHMENTS_ON, none)).to.include({ code: 'file_type_refused', detected: 'HTML' });
  });

  it('leaves what it cannot tell to the server, which decides from the bytes', () => {
    expect(checkFile(file('diagram.svg', ''), ATTACHMENTS_ON, none)).to.equal(null);
    expect(
      checkFile(file('report.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'), ATTACHMENTS_ON, none),
    ).to.equal(null);
  });

  it('refuses an empty file, one over the size limit, one past the files one message may carry, and one over the message’s total', () => {
    expect(checkFile(file('empty.txt', 'text/plain', 0), ATTACHMENTS_ON, none)).to.deep.equal({ code: 'file_empty' });
    expect(checkFile(file('big.png', 'image/png', 11 * MB), ATTACHMENTS_ON, none)).to.deep.equal({
      code: 'file_too_large',
      size: 11 * MB,
      limitBytes: 10 * MB,
    });
    expect(checkFile(file('11th.png', 'image/png'), ATTACHMENTS_ON, { count: 10, bytes: 1000 })).to.deep.equal({
      code: 'too_many',
      perMessage: 10,
    });
    expect(checkFile(file('more.png', 'image/png', 2 * MB), ATTACHMENTS_ON, { count: 3, bytes: 19 * MB })).to.deep.equal({
      code: 'message_files_too_large',
      limitBytes: 20 * MB,
    });
  });

  it('writes sizes in units of 1,024, as sites set their limits', () => {
    expect([fileSize(312), fileSize(840 * 1024), fileSize(4.2 * MB), fileSize(10 * MB), fileSize(48 * MB)]).to.deep.equal([
      '312 bytes',
      '840 kB',
      '4.2 MB',
      '10 MB',
      '48 MB',
    ]);
  });
});
