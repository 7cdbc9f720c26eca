/// <reference types="mocha" />
import { expect, waitUntil } from '@open-wc/testing';
import { RefusedError, type UploadRefusal } from '../state/heed-api.ts';
import { uploadRequest } from './upload-request.ts';

const api = `${location.origin}/no-api-here/`;
const file = () => new File(['hello'], 'my notes.txt', { type: 'text/plain' });

describe('an upload on the wire', () => {
  it('posts the bytes to files?conversationId=…&name=… under the API, and words a refusal by its status', async () => {
    const refused = await uploadRequest(api, 'token-1', { conversationId: 'c-1', name: 'my notes.txt', file: file() }).catch((e) => e);
    expect(refused).to.be.instanceOf(RefusedError);
    // the test server has no such route: a refusal without a code is an upload that failed, not one the visitor must fix
    expect([(refused as UploadRefusal).reason, (refused as UploadRefusal).status]).to.deep.equal(['upload_failed', 404]);
    const sent = performance.getEntriesByType('resource').map((e) => e.name);
    expect(sent).to.include(`${api}files?conversationId=c-1&name=my%20notes.txt`);
  });

  it('rejects with an AbortError when aborted, before or during the upload', async () => {
    const before = new AbortController();
    before.abort();
    const early = await uploadRequest(api, null, { conversationId: 'c', name: 'a', file: file(), signal: before.signal }).catch((e) => e);
    expect((early as DOMException).name).to.equal('AbortError');

    const during = new AbortController();
    const going = uploadRequest(api, null, { conversationId: 'c', name: 'b', file: file(), signal: during.signal }).catch((e) => e);
    during.abort();
    const late = await going;
    expect((late as DOMException).name).to.equal('AbortError');
  });

  it('says a request that never reached a server is offline', async () => {
    let error: unknown;
    uploadRequest('http://127.0.0.1:9/', null, { conversationId: 'c', name: 'a', file: file() }).catch((e) => (error = e));
    await waitUntil(() => error, 'the request failed', { timeout: 5000 });
    expect((error as Error).name).to.equal('OfflineError');
  });
});
