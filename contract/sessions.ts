/** A row of GET /api/sessions (issue 30): where and when a sign-in is live. */
export type SessionView = {
  id: number;
  /** The session of the request's own token. */
  current: boolean;
  userId: number;
  userName: string;
  userAgent: string | null;
  ip: string | null;
  createdAt: string;
  lastSeenAt: string;
};
