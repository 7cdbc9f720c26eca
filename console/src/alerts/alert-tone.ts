let audio: AudioContext | null = null;
let interacted = false;
let listening = false;

/**
 * Whether the operator has interacted with the page yet (a click, a key): browsers let a page
 * make sound only after that, and the console never tries before. `navigator.userActivation`
 * where the browser has it; elsewhere a first pointer or key press, heard from `listenForInteraction`.
 */
export function hasInteracted(): boolean {
  const activation = (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation;
  return activation?.hasBeenActive ?? interacted;
}

/** Starts listening for the first interaction (for browsers without `navigator.userActivation`). */
export function listenForInteraction(): void {
  if (listening) return;
  listening = true;
  const heard = () => {
    interacted = true;
    removeEventListener('pointerdown', heard, true);
    removeEventListener('keydown', heard, true);
  };
  addEventListener('pointerdown', heard, true);
  addEventListener('keydown', heard, true);
}

/**
 * A short, soft two-note chime made with the Web Audio API (no audio file to serve or cache).
 * Does nothing before the operator interacted with the page, or where Web Audio is missing;
 * returns whether it played.
 * @example if (settings.sound) playAlertTone();
 */
export function playAlertTone(): boolean {
  if (!hasInteracted() || typeof AudioContext === 'undefined') return false;
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume();
    const start = audio.currentTime + 0.01;
    note(audio, 880, start);
    note(audio, 1175, start + 0.14);
    return true;
  } catch {
    return false;
  }
}

/** One note: a sine that rises in 10 ms and fades out, so it starts and ends without a click. */
function note(ctx: AudioContext, hz: number, at: number): void {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = 'sine';
  osc.frequency.value = hz;
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(0.18, at + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.22);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + 0.25);
}
