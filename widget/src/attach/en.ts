/**
 * The English strings of attachments: the files waiting to go with a message, why one cannot go,
 * and files in the thread. They ride in the attachments' chunk (a visitor who never meets a file
 * never loads them); every other language is one file in `./locales/` with the same keys, loaded
 * with that chunk (`strings.ts`). Counted strings are functions of the count, as in `i18n/en.ts`.
 * A file's name comes first in most of them, so a refusal still says which file it is about
 * when read out alone.
 *
 * @example at().remove('photo.png') // 'Remove photo.png'
 */
export const en = {
  /** the list of files waiting to go with the next message */
  filesToSend: 'Files to send',
  /** a file's progress bar */
  uploading: (name: string) => `Uploading ${name}`,
  /** said once a file is uploaded */
  ready: (name: string) => `${name} is ready to send`,
  remove: (name: string) => `Remove ${name}`,
  /** uploads a file again after it failed on the way (not after a refusal) */
  retryUpload: (name: string) => `Try ${name} again`,
  /** the send button's name, and a line above the box, while a send waits for its files */
  sendWhenUploaded: 'Sending once the files are uploaded…',
  /** over the panel while files are dragged onto it (and read out) */
  dropFiles: 'Drop files here to attach them',
  // why a file cannot go: said beside it and read out
  tooLarge: (name: string, size: string, limit: string) => `${name} is ${size}; files can be up to ${limit}.`,
  messageTooLarge: (name: string, limit: string) => `${name} can't be attached: the files of one message can be up to ${limit} together.`,
  tooMany: (name: string, n: number) => `${name} can't be attached: one message can carry up to ${n === 1 ? '1 file' : `${n} files`}.`,
  /** `why` is `images`, `files` or `thisType` */
  typeRefused: (name: string, why: string) => `${name} can't be attached: ${why}.`,
  images: (label: string) => `${label} images aren't accepted`,
  files: (label: string) => `${label} files aren't accepted`,
  thisType: "this type of file isn't accepted",
  /** after a type refusal: `list` is the site's kinds ("PNG, JPEG, PDF, or text") */
  canAttach: (list: string) => `You can attach ${list} files.`,
  /** the text kind in `canAttach`'s list */
  text: 'text',
  /** a text file's type, beside its size */
  textFile: 'Text file',
  damaged: (name: string) => `${name} can't be attached: the file is damaged.`,
  empty: (name: string) => `${name} can't be attached: the file is empty.`,
  off: (name: string) => `${name} can't be attached: this site doesn't take files.`,
  /** the upload broke off (network, server): the file can be tried again */
  failed: (name: string) => `${name} couldn't be uploaded.`,
  rateLimited: (name: string, seconds: number) =>
    `Too many uploads at once: ${name} is tried again in ${seconds === 1 ? '1 second' : `${seconds} seconds`}.`,
  /** on a file that waits to be tried again */
  waiting: 'Waiting to try again…',
  // in the thread
  enlarge: (name: string) => `Enlarge ${name}`,
  close: 'Close',
};

/** The shape every language file of attachments fills in. */
export type AttachMessages = typeof en;
