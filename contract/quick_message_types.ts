/**
 * A quick answer as the API answers it (seeds/001 section 3 'Quick message'): declared once here,
 * imported by the server's view (server/quick_messages/repository.ts) and the page. The file is
 * read through GET /api/quick-messages/:id/media, never by a path.
 */
export type QuickMessageView = {
  id: number;
  shortcode: string;
  message: string;
  geral: boolean;
  /** Issue 28: offered after '/' to this queue's attendants only (null: not a queue's). */
  queueId: number | null;
  userId: number | null;
  companyId: number;
  isMedia: boolean;
  mediaName: string | null;
  createdAt: string;
  updatedAt: string;
};
