import { expect, test } from 'vitest';
import { IMAGE_NOT_SHOWN, withoutImages } from './without-images.ts';

test('a model without image input is told an image is there that it cannot see, in a single string', () => {
  const messages = withoutImages([
    { role: 'system', content: 'be nice' },
    { role: 'user', content: 'earlier' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?\n\n[Attached image: error.png]' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    },
  ]);
  expect(messages).toEqual([
    { role: 'system', content: 'be nice' },
    { role: 'user', content: 'earlier' },
    { role: 'user', content: `what is this?\n\n[Attached image: error.png]\n\n${IMAGE_NOT_SHOWN}` },
  ]);
  expect(JSON.stringify(messages)).not.toContain('base64');
});
