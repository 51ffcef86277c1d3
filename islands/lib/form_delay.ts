/**
 * seeds/001 section 9: admin forms submit 500 ms after the click. The button is busy meanwhile,
 * so a double click sends one request (useFormSubmit `admin`).
 */
export const ADMIN_SUBMIT_DELAY_MS = 500;

/**
 * seeds/000 section 9: the core forms (connections, users, contacts) submit 400 ms after the
 * click. The button is busy meanwhile, so a double click sends one request (useFormSubmit).
 */
export const FORM_SUBMIT_DELAY_MS = 400;
