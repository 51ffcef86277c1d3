/**
 * Meta's error codes (developers.facebook.com …/support/error-codes) as the catalogue's codes,
 * with whether trying again can ever succeed. Branch on `code` only: `error_subcode` is gone
 * since Graph v16.
 */
export type CloudErrorKind = {
  code: string;
  /** Trying again will not help (Meta said so); the outbox gives the send up at once. */
  permanent: boolean;
  /** A rate limit: wait before this number (or this recipient) sends again. */
  backoff?: boolean;
  /** The token no longer works: admins must paste a new one ('reautorizar'). */
  reauthorize?: boolean;
};

const KNOWN: Record<number, CloudErrorKind> = {
  131047: { code: "ERR_WHATSAPP_WINDOW_CLOSED", permanent: true },
  130429: { code: "ERR_WHATSAPP_RATE_LIMITED", permanent: false, backoff: true },
  131056: { code: "ERR_WHATSAPP_PAIR_RATE_LIMITED", permanent: false, backoff: true },
  131026: { code: "ERR_WHATSAPP_UNDELIVERABLE", permanent: true },
  131048: { code: "ERR_WHATSAPP_SPAM_LIMITED", permanent: true },
  131049: { code: "ERR_WHATSAPP_NOT_DELIVERED_LIMIT", permanent: true },
  131051: { code: "ERR_WHATSAPP_UNSUPPORTED_TYPE", permanent: true },
  131053: { code: "ERR_WHATSAPP_MEDIA_UPLOAD", permanent: true },
  132000: { code: "ERR_WHATSAPP_TEMPLATE_PARAMS", permanent: true },
  368: { code: "ERR_WHATSAPP_POLICY_BLOCKED", permanent: true },
  190: { code: "ERR_WHATSAPP_TOKEN_INVALID", permanent: true, reauthorize: true },
};

/** What a Meta error code means for us; unknown codes: a 4xx is final, anything else retried. */
export function cloudErrorKind(code: number | undefined, httpStatus?: number): CloudErrorKind {
  if (code !== undefined && KNOWN[code]) return KNOWN[code];
  const permanent = httpStatus !== undefined && httpStatus >= 400 && httpStatus < 500 &&
    httpStatus !== 408 && httpStatus !== 429;
  return { code: "ERR_WHATSAPP_CLOUD_ERROR", permanent };
}

/** A failed Graph API call: Meta's code and message, and what it means. */
export class GraphError extends Error {
  readonly metaCode?: number;
  readonly httpStatus: number;
  readonly kind: CloudErrorKind;
  constructor(httpStatus: number, metaCode: number | undefined, message: string) {
    super(metaCode === undefined ? message : `(#${metaCode}) ${message}`);
    this.name = "GraphError";
    this.httpStatus = httpStatus;
    this.metaCode = metaCode;
    this.kind = cloudErrorKind(metaCode, httpStatus);
  }
}
