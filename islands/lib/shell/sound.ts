import { storedVolume } from "../storage.ts";

/**
 * The notification sound, synthesised with Web Audio (no file to download), at the volume the
 * user set in the top bar (seeds/000 section 2 'Top bar'; 0 is silent).
 */
let context: AudioContext | null = null;

export function playNotificationSound(volume = storedVolume()) {
  if (volume <= 0 || typeof AudioContext === "undefined") return;
  try {
    context ??= new AudioContext();
    const now = context.currentTime;
    const gain = context.createGain();
    gain.connect(context.destination);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.25 * volume, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.45);
    for (const [freq, start] of [[880, 0], [1318.5, 0.12]]) {
      const osc = context.createOscillator();
      osc.type = "sine";
      osc.frequency.setValueAtTime(freq, now + start);
      osc.connect(gain);
      osc.start(now + start);
      osc.stop(now + 0.45);
    }
  } catch {
    // Autoplay policies may refuse sound before the first user gesture: stay silent.
  }
}
