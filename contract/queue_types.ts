import type { WorkingHoursEntry } from "./working_hours.ts";

/** A queue as GET/POST/PUT /api/queue answer it (seeds/001 section 3 'Queue'). */
export type Queue = {
  id: number;
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  orderQueue: number | null;
  integrationId: number | null;
  promptId: number | null;
  schedules: WorkingHoursEntry[];
  mediaName: string | null;
  /** Authorised download route of the attachment. */
  mediaUrl: string | null;
  companyId: number;
  /** Issue 26: who gets a ticket entering the queue (off: attendants pick from 'Aguardando'). */
  distribution: QueueDistribution;
  /** Service-level targets in the queue's business minutes (null: no target). */
  firstResponseMinutes: number | null;
  resolutionMinutes: number | null;
  /** The resolution clock stops while the ticket's last message is ours (waiting on the customer). */
  pauseWhenWaitingOnCustomer: boolean;
};

export const DISTRIBUTIONS = ["off", "round_robin", "least_busy"] as const;
export type QueueDistribution = typeof DISTRIBUTIONS[number];

/**
 * Minutes offline after which an attendant's untouched distributed tickets go to others, when the
 * company did not set `distributionOfflineMinutes` (issue 26; 0: never).
 */
export const DEFAULT_OFFLINE_MINUTES = 10;

/** A chatbot option (seeds/001 section 3 'Queue option'), as /api/queue-options answers it. */
export type QueueOption = {
  id: number;
  queueId: number;
  parentId: number | null;
  title: string;
  message: string;
  /** What the contact types to pick it ("1", "2"...). */
  option: string;
  mediaName: string | null;
  mediaUrl: string | null;
};

/** GET /api/queue-options/tree?queueId: options nested by parent. */
export type QueueOptionNode = QueueOption & { children: QueueOptionNode[] };

/** `company-<id>-queue` realtime messages (server/queues and server/queue_options services). */
export type QueueEvent =
  | { action: "create" | "update"; queue: Queue }
  | { action: "delete"; queueId: number }
  | { action: "optionCreate" | "optionUpdate"; option: QueueOption }
  | { action: "optionDelete"; queueId: number; optionId: number; optionIds: number[] };
