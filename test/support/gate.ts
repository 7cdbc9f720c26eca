/**
 * A promise a test opens when the visitor has done what it waits for: pass `gate.opened` as a
 * scripted reply's `until` to hold the model's answer until then, instead of guessing a delay.
 * @example
 * const away = gate();
 * heed.model.script({ text: 'Answered while you were away.', until: away.opened });
 * await page.keyboard.press('Escape');
 * away.open();
 */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
