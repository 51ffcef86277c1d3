import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";
import type { Database } from "./client.ts";

/**
 * Tenancy in one place (DESIGN 'Tenancy and access'): every query on a table that holds a
 * `companyId` must name the company, so a repository that forgets `where("companyId", ...)` is
 * caught by the test suite instead of leaking another company's rows. The guard reads the query's
 * tree before it runs:
 * - select, update, delete whose main table is a company table: an AND-ed predicate on a
 *   `companyId` column (`=`, `in`, `is`) in its WHERE;
 * - insert into a company table: a `companyId` column.
 * Raw `sql` statements are not read (they are few, and only in repositories).
 *
 * Queries that cross companies on purpose (super-user screens, the jobs that scan every company,
 * a lookup by a global key such as a login email or a token hash) go through `crossCompany(db)`,
 * whose callers are an explicit list in tests/architecture/tenancy_test.ts.
 *
 * The guard runs in the test suite (TENANCY_GUARD=strict): a breach throws and is recorded, and
 * the test app's close() fails the test with it. Production does not pay for it.
 */
export const COMPANY_TABLES: ReadonlySet<string> = new Set([
  "announcement_reads",
  "announcements",
  "api_idempotency_keys",
  "assist_jobs",
  "assist_usage",
  "audit_logs",
  "baileys_auth",
  "billing_customers",
  "campaign_opt_outs",
  "campaign_pacing",
  "campaign_settings",
  "campaign_shipping",
  "campaigns",
  "chat_messages",
  "chat_users",
  "chats",
  "contact_custom_fields",
  "contact_list_items",
  "contact_lists",
  "contacts",
  "file_list_options",
  "file_lists",
  "import_map",
  "invoice_reminders",
  "invoices",
  "messages",
  "outbox",
  "password_resets",
  "prompts",
  "push_deliveries",
  "outgoing_events",
  "push_preferences",
  "push_subscriptions",
  "queue_integrations",
  "queue_options",
  "queues",
  "quick_messages",
  "recovery_codes",
  "report_days",
  "report_message_hours",
  "report_ticket_messages",
  "refresh_tokens",
  "schedules",
  "sessions",
  "settings",
  "simulator_sent",
  "simulator_sessions",
  "tags",
  "taken_back_notices",
  "ticket_counts",
  "ticket_events",
  "ticket_notification_counts",
  "ticket_notes",
  "ticket_pins",
  "ticket_summaries",
  "ticket_tags",
  "tickets",
  "two_factor_challenges",
  "user_presence",
  "user_queues",
  "user_ratings",
  "users",
  "webhook_deliveries",
  "webhooks",
  "whatsapp_leases",
  "whatsapp_queues",
  "whatsapps",
  "whatsapp_cloud",
  "whatsapp_cloud_inbox",
  "whatsapp_cloud_sends",
  "whatsapp_cloud_templates",
]);

type Node = OperationNode & Record<string, unknown>;

function tableName(node: OperationNode | undefined): string | undefined {
  const n = node as Node | undefined;
  if (!n) return undefined;
  if (n.kind === "AliasNode") return tableName(n.node as OperationNode);
  if (n.kind === "TableNode") {
    const id = (n.table as Node).identifier as Node;
    return id.name as string;
  }
  return undefined;
}

function isCompanyColumn(node: OperationNode | undefined): boolean {
  const n = node as Node | undefined;
  if (!n) return false;
  if (n.kind === "ReferenceNode") return isCompanyColumn(n.column as OperationNode);
  if (n.kind === "ColumnNode") return ((n.column as Node).name as string) === "companyId";
  return false;
}

/** Is there a companyId predicate reached from the root through AND and parentheses only? */
function scopes(node: OperationNode | undefined): boolean {
  const n = node as Node | undefined;
  if (!n) return false;
  switch (n.kind) {
    case "WhereNode":
      return scopes(n.where as OperationNode);
    case "AndNode":
      return scopes(n.left as OperationNode) || scopes(n.right as OperationNode);
    case "ParensNode":
      return scopes(n.node as OperationNode);
    case "BinaryOperationNode": {
      const op = (n.operator as Node).operator as string;
      return ["=", "in", "is"].includes(op) &&
        (isCompanyColumn(n.leftOperand as OperationNode) ||
          isCompanyColumn(n.rightOperand as OperationNode));
    }
    case "RawNode":
      return (n.sqlFragments as string[]).some((s) => /"?companyId"?\s*(=|in\b|is\b)/i.test(s));
    default:
      return false;
  }
}

/** The breach a query makes, or undefined when it is scoped (or not on a company table). */
export function tenancyBreach(root: RootOperationNode): string | undefined {
  const n = root as unknown as Node;
  switch (n.kind) {
    case "SelectQueryNode": {
      const from = (n.from as Node | undefined)?.froms as OperationNode[] | undefined;
      const table = tableName(from?.[0]);
      if (table && COMPANY_TABLES.has(table) && !scopes(n.where as OperationNode)) {
        return `select from ${table} without a companyId predicate`;
      }
      return undefined;
    }
    case "UpdateQueryNode": {
      const table = tableName(n.table as OperationNode);
      if (table && COMPANY_TABLES.has(table) && !scopes(n.where as OperationNode)) {
        return `update of ${table} without a companyId predicate`;
      }
      return undefined;
    }
    case "DeleteQueryNode": {
      const from = (n.from as Node).froms as OperationNode[];
      const table = tableName(from[0]);
      if (table && COMPANY_TABLES.has(table) && !scopes(n.where as OperationNode)) {
        return `delete from ${table} without a companyId predicate`;
      }
      return undefined;
    }
    case "InsertQueryNode": {
      const table = tableName(n.into as OperationNode);
      const columns = (n.columns as OperationNode[] | undefined) ?? [];
      if (table && COMPANY_TABLES.has(table) && !columns.some(isCompanyColumn)) {
        return `insert into ${table} without companyId`;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** Breaches seen by a guarded database (the test app fails on any at close). */
export class TenancyBreaches {
  readonly seen: string[] = [];
}

export class TenancyGuard implements KyselyPlugin {
  constructor(private readonly breaches: TenancyBreaches) {}

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    const breach = tenancyBreach(node);
    if (!breach) return node;
    // The stack names the function that built the query. A test reading the database to check
    // an outcome is not the app: it may look at every company.
    const where = new Error().stack?.split("\n").slice(2).find((line) =>
      !line.includes("node_modules") && !line.includes("/db/tenancy.ts")
    )?.trim();
    if (where && /\/tests\//.test(where)) return node;
    const text = `tenancy: ${breach} (${where ?? "unknown caller"})`;
    this.breaches.seen.push(text);
    throw new Error(text);
  }

  transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(result);
  }
}

/**
 * The database without the tenancy guard, for a query that crosses companies on purpose (the
 * callers are listed with their reason in tests/architecture/tenancy_test.ts).
 */
export function crossCompany<T extends Database>(db: T): T {
  return db.withoutPlugins() as T;
}
