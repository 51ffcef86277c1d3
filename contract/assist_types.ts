/** Issue 48: the attendant's assistant, as the API answers it and the pages read it. */
export type AssistFeatureName = "transcription" | "summary" | "suggestions";

/** GET /api/assist/usage: this month's meter (UTC month), estimated US dollars. */
export type AssistUsageView = {
  month: string;
  features: {
    feature: AssistFeatureName;
    calls: number;
    failures: number;
    tokens: number;
    /** Audio seconds transcribed. */
    seconds: number;
    cost: number;
  }[];
  cost: number;
  /** 0: no cap. */
  cap: number;
  /** What admins were told: the cap paused the features, or the key was refused. */
  notice: "" | "cap" | "wrongKey";
  /** Whether an account (the company's or the platform's) is there to call. */
  account: boolean;
};

/** A ticket's summary (POST answers `{ summary }`; GET and the socket carry this). */
export type TicketSummaryView = {
  ticketId: number;
  summary: string;
  /** transfer, reopened or asked. */
  reason: string;
  createdAt: string;
};
