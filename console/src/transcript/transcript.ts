import { HeedConsoleTranscript } from './transcript.component.ts';

export { HeedConsoleTranscript };

customElements.get('heed-console-transcript') || customElements.define('heed-console-transcript', HeedConsoleTranscript);

declare global {
  interface HTMLElementTagNameMap {
    'heed-console-transcript': HeedConsoleTranscript;
  }
}
