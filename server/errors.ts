/**
 * One error type for everything the API answers with a non-2xx status.
 * Codes are the catalogue of seeds/000 section 8 plus our own.
 */

/** The specification's error catalogue (seeds/000 section 8). */
export type CatalogueCode =
  | "ERR_NO_OTHER_WHATSAPP"
  | "ERR_NO_DEF_WAPP_FOUND"
  | "ERR_WAPP_NOT_INITIALIZED"
  | "ERR_WAPP_CHECK_CONTACT"
  | "ERR_WAPP_INVALID_CONTACT"
  | "ERR_WAPP_DOWNLOAD_MEDIA"
  | "ERR_INVALID_CREDENTIALS"
  | "ERR_SENDING_WAPP_MSG"
  | "ERR_DELETE_WAPP_MSG"
  | "ERR_OTHER_OPEN_TICKET"
  | "ERR_SESSION_EXPIRED"
  | "ERR_USER_CREATION_DISABLED"
  | "ERR_NO_PERMISSION"
  | "ERR_DUPLICATED_CONTACT"
  | "ERR_NO_SETTING_FOUND"
  | "ERR_NO_CONTACT_FOUND"
  | "ERR_NO_TICKET_FOUND"
  | "ERR_NO_USER_FOUND"
  | "ERR_NO_WAPP_FOUND"
  | "ERR_CREATING_MESSAGE"
  | "ERR_CREATING_TICKET"
  | "ERR_FETCH_WAPP_MSG"
  | "ERR_QUEUE_COLOR_ALREADY_EXISTS"
  | "ERR_WAPP_GREETING_REQUIRED";

/** Codes of our own, for situations the catalogue does not name. */
export type OwnCode =
  | "ERR_VALIDATION"
  | "ERR_SESSION_ENDED_ELSEWHERE"
  | "ERR_UNAUTHORIZED"
  | "ERR_RATE_LIMITED"
  | "ERR_NOT_FOUND"
  | "ERR_BODY_TOO_LARGE"
  | "ERR_SUBSCRIPTION_EXPIRED"
  /** A session command could not reach the process that holds the connection (docs/scaling.md). */
  | "ERR_SESSION_UNREACHABLE"
  | "ERR_PLAN_LIMIT"
  | "ERR_PLAN_FEATURE_DISABLED"
  | "ERR_NO_QUEUE_FOUND"
  | "ERR_NO_TAG_FOUND"
  | "ERR_NO_MESSAGE_FOUND"
  | "ERR_NO_NOTE_FOUND"
  | "ERR_NO_SCHEDULE_FOUND"
  | "ERR_NO_QUICK_MESSAGE_FOUND"
  /** Issue 28: a user's pins are LIMITS.pinnedTickets at most. */
  | "ERR_PIN_LIMIT"
  | "ERR_NO_QUEUE_OPTION_FOUND"
  | "ERR_NO_COMPANY_FOUND"
  | "ERR_NO_PLAN_FOUND"
  | "ERR_PLAN_IN_USE"
  | "ERR_NO_HELP_FOUND"
  | "ERR_COMPANY_PROTECTED"
  | "ERR_SIGNUP_DISABLED"
  | "ERR_NO_MEDIA_FOUND"
  | "ERR_INVALID_TRANSITION"
  | "ERR_DUPLICATED_EMAIL"
  | "ERR_DUPLICATED_NAME"
  | "ERR_INVALID_MEDIA"
  | "ERR_MEDIA_TOO_LARGE"
  | "ERR_SCHEDULE_IN_PAST"
  | "ERR_FORBIDDEN"
  | "ERR_NO_CHAT_FOUND"
  | "ERR_EMPTY_MESSAGE"
  | "ERR_MESSAGE_TOO_LONG"
  | "ERR_NO_ANNOUNCEMENT_FOUND"
  | "ERR_CONFLICT"
  | "ERR_NO_INVOICE_FOUND"
  | "ERR_INVOICE_ALREADY_PAID"
  | "ERR_INVOICE_PERIOD_EXISTS"
  | "ERR_INVOICE_NOT_PAID"
  | "ERR_PLAN_CHANGE_DISABLED"
  | "ERR_SUBSCRIPTION_OVERDUE"
  | "ERR_PAYMENT_AMOUNT_MISMATCH"
  | "ERR_INVALID_WEBHOOK"
  | "ERR_BILLING_NOT_CONFIGURED"
  | "ERR_PAYMENT_PROVIDER"
  | "ERR_INTERNAL"
  // issue 13: campaigns and their lists.
  | "ERR_NO_CONTACT_LIST_FOUND"
  | "ERR_NO_CONTACT_LIST_ITEM_FOUND"
  | "ERR_NO_CAMPAIGN_FOUND"
  | "ERR_NO_FILE_LIST_FOUND"
  | "ERR_CAMPAIGN_NOT_EDITABLE"
  | "ERR_CAMPAIGN_NO_RECIPIENTS"
  // issue 24: a campaign text uses a variable nothing fills (the answer's params name it).
  | "ERR_CAMPAIGN_UNKNOWN_VARIABLE"
  | "ERR_NO_INTEGRATION_FOUND"
  | "ERR_INTEGRATION_URL"
  | "ERR_INVALID_SERVICE_ACCOUNT"
  | "ERR_INTEGRATION_TEST_FAILED"
  | "ERR_NO_PROMPT_FOUND"
  | "ERR_PROMPT_QUEUE_REQUIRED"
  | "ERR_INVALID_NUMBER"
  | "ERR_IDEMPOTENCY_KEY_REUSED"
  | "ERR_NO_WEBHOOK_FOUND"
  // Operations (issue 17)
  | "ERR_BACKUP_UNAVAILABLE"
  | "ERR_BACKUP_DIR_NOT_WRITABLE"
  | "ERR_BACKUP_FAILED"
  | "ERR_INVALID_RESET_TOKEN"
  | "ERR_MAIL_NOT_CONFIGURED"
  // issue 35: a spreadsheet past an import's limits (upload, uncompressed size, rows, memory).
  | "ERR_IMPORT_TOO_LARGE"
  // issue 34: a write refused for lack of space (507) or on an unwritable data folder (503).
  | "ERR_STORAGE_FULL"
  | "ERR_STORAGE_UNAVAILABLE"
  // issue 30: two-factor sign-in and sessions.
  | "ERR_INVALID_TWO_FACTOR_CODE"
  | "ERR_TWO_FACTOR_CHALLENGE_EXPIRED"
  | "ERR_TWO_FACTOR_ALREADY_ENABLED"
  | "ERR_TWO_FACTOR_NOT_ENABLED"
  | "ERR_TWO_FACTOR_NOT_SET_UP"
  | "ERR_TWO_FACTOR_SETUP_REQUIRED"
  | "ERR_NO_SESSION_FOUND"
  | "ERR_NO_PUSH_SUBSCRIPTION_FOUND"
  | "ERR_PUSH_ENDPOINT_INVALID"
  // issue 28: forward into another attendant's ticket; edit a text of ours.
  | "ERR_FORWARD_OTHER_ATTENDANT"
  | "ERR_FORWARD_TICKET_PENDING"
  // issue 50 item 9: waiting in a queue the caller does not serve (they cannot accept it).
  | "ERR_FORWARD_TICKET_PENDING_OTHER_QUEUE"
  | "ERR_EDIT_WAPP_MSG"
  | "ERR_EDIT_WINDOW_EXPIRED"
  // issue 26: a supervised queue the user is not in; half a day of work hours.
  | "ERR_SUPERVISED_QUEUE_NOT_MEMBER"
  | "ERR_INVALID_WORK_HOURS"
  // issue 45: Meta's WhatsApp Cloud API (its error codes: providers/cloud_api/errors.ts).
  | "ERR_WHATSAPP_WINDOW_CLOSED"
  | "ERR_WHATSAPP_RATE_LIMITED"
  | "ERR_WHATSAPP_PAIR_RATE_LIMITED"
  | "ERR_WHATSAPP_UNDELIVERABLE"
  | "ERR_WHATSAPP_SPAM_LIMITED"
  | "ERR_WHATSAPP_NOT_DELIVERED_LIMIT"
  | "ERR_WHATSAPP_UNSUPPORTED_TYPE"
  | "ERR_WHATSAPP_MEDIA_UPLOAD"
  | "ERR_WHATSAPP_TEMPLATE_PARAMS"
  | "ERR_WHATSAPP_POLICY_BLOCKED"
  | "ERR_WHATSAPP_TOKEN_INVALID"
  | "ERR_WHATSAPP_CLOUD_ERROR"
  | "ERR_WHATSAPP_CLOUD_UNREACHABLE"
  | "ERR_WHATSAPP_SEND_UNCERTAIN"
  | "ERR_WHATSAPP_TEMPLATE_NOT_FOUND"
  | "ERR_WHATSAPP_NO_TEMPLATES"
  | "ERR_WHATSAPP_TEMPLATE_REQUIRED"
  | "ERR_WHATSAPP_VOICE_FORMAT"
  | "ERR_WHATSAPP_NO_REACTIONS"
  | "ERR_WHATSAPP_BAD_SIGNATURE"
  | "ERR_WHATSAPP_BAD_VERIFY_TOKEN"
  // Issue 48: the attendant's assistant.
  | "ERR_ASSIST_DISABLED"
  | "ERR_ASSIST_PAUSED"
  | "ERR_ASSIST_FAILED";

export type ErrorCode = CatalogueCode | OwnCode;

export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly fields?: FieldErrors;
  /** Values the error's text names (`{{variable}}` in locales' `errors.<CODE>`). */
  readonly params?: Record<string, string>;

  constructor(
    status: number,
    code: ErrorCode,
    message?: string,
    options?: { cause?: unknown; fields?: FieldErrors; params?: Record<string, string> },
  ) {
    super(message ?? code, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.status = status;
    this.code = code;
    this.fields = options?.fields;
    this.params = options?.params;
  }
}

/** A record that is missing, or belongs to another company: both look the same (DESIGN tenancy). */
export function notFound(code: ErrorCode, message = "Not found"): AppError {
  return new AppError(404, code, message);
}

export function forbidden(message = "Acesso não permitido"): AppError {
  return new AppError(403, "ERR_NO_PERMISSION", message);
}

export function badRequest(code: ErrorCode, message?: string, fields?: FieldErrors): AppError {
  return new AppError(400, code, message, { fields });
}
