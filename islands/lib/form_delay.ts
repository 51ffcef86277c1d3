/**
 * seeds/001 section 9: admin forms submit 500 ms after the click. The button is busy meanwhile,
 * so a double click sends one request.
 */
export const ADMIN_SUBMIT_DELAY_MS = 500;

export function adminSubmitDelay(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ADMIN_SUBMIT_DELAY_MS));
}
