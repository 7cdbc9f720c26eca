import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

/**
 * What a model that cannot see images is told in an image's place. The visitor is never told
 * something false: the model knows an image is there, that it cannot see it, and what to do.
 */
export const IMAGE_NOT_SHOWN =
  '[An image the visitor attached is not shown to you: this model cannot see images. Do not guess what it shows; if it matters, say you cannot view images here and ask the visitor to describe it.]';

/**
 * The messages with every image part replaced by {@link IMAGE_NOT_SHOWN}, and every user
 * message's parts joined into one string (a server without image input often takes no parts
 * at all). Messages without images are passed through untouched.
 * @example withoutImages([{ role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image_url', image_url: { url } }] }])
 * // [{ role: 'user', content: 'see\n\n[An image the visitor attached is not shown to you: …]' }]
 */
export function withoutImages(messages: readonly ChatCompletionMessageParam[]): ChatCompletionMessageParam[] {
  return messages.map((m) => {
    if (m.role !== 'user' || typeof m.content === 'string') return m;
    const text = m.content.map((part) => (part.type === 'text' ? part.text : IMAGE_NOT_SHOWN)).join('\n\n');
    return { ...m, content: text };
  });
}
