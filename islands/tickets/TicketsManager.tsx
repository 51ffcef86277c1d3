import { useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { useUser } from "../lib/session.ts";
import { viewerOfUser } from "../../contract/ticket_audience.ts";
import { can } from "../lib/permissions.ts";
import { Switch } from "./bits.tsx";
import { MultiSelect } from "./MultiSelect.tsx";
import { listElementId, TicketList } from "./TicketList.tsx";
import type { QueueOption, TagRef, Ticket, UserOption } from "../../contract/ticket_types.ts";
import { useLookup } from "../lib/use_lookup.ts";
import { useTicketList } from "./use_ticket_list.ts";
import { useMediaQuery } from "../lib/media_query.ts";

import { lazyPart } from "../lib/ui/deferred.tsx";
import { Tab, TabList, TabsRoot } from "../lib/ui/Tabs.tsx";
import { icon } from "../lib/ui/icon.tsx";

const CheckCheck = icon("check-check");
const Layers = icon("layers");
const MessageSquareText = icon("message-square-text");
const Plus = icon("plus");
const Search = icon("search");
const Tag = icon("tag");
const Users = icon("users");
const Timer = icon("timer");

const NewTicketDialog = lazyPart(() => import("./NewTicketDialog.tsx").then((m) => m.default));
const PeekDialog = lazyPart(() => import("./PeekDialog.tsx").then((m) => m.default));

type Tab = "open" | "closed" | "search";
const NO_QUEUE = "none";

/**
 * The lists a tab shows: the tabs have no radix Content (the lists stay mounted to keep their
 * place), so a trigger names the lists itself, never an element that is not there.
 */
const controls = (...testIds: string[]) => testIds.map(listElementId).join(" ");

/**
 * The left column of /tickets (seeds/000 section 2 'Tickets page'): tabs open (assigned and
 * pending, with count badges), closed and search (text, tags and, for admins, users); the queue
 * selection; the admins' show-all switch (on by default for them); the new-ticket dialog; the
 * admins' peek.
 */
export function TicketsManager(
  { selectedUuid, onOpen }: { selectedUuid: string | null; onOpen: (uuid: string) => void },
) {
  const { t } = useTranslation();
  const user = useUser();
  // Who may see every ticket gets the switch, every queue and the users filter (seeds/000 s. 6).
  const admin = can(user, "tickets-manager:showall");
  const narrow = useMediaQuery("(max-width: 599.98px)");
  const [tab, setTab] = useState<Tab>("open");
  const [openTab, setOpenTab] = useState<"open" | "pending">("open");
  const [visited, setVisited] = useState<Set<Tab>>(() => new Set(["open"]));
  const [showAll, setShowAll] = useState(admin);
  const [sort, setSort] = useState<"updatedAt" | "timeLeft">("updatedAt");
  const [search, setSearch] = useState("");
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [userIds, setUserIds] = useState<string[]>([]);
  const [newOpen, setNewOpen] = useState(false);
  const [peek, setPeek] = useState<Ticket | null>(null);
  const [acceptingId, setAcceptingId] = useState<number | null>(null);

  // Admins choose among every queue of the company; users among their own (seeds/000 s. 6).
  const companyQueues = useLookup<QueueOption>(admin ? "/queue" : null, "queues");
  const queueOptions: QueueOption[] = admin ? companyQueues.items : user.queues;
  const allQueueValues = [...queueOptions.map((q) => String(q.id)), NO_QUEUE];
  const [chosenQueues, setChosenQueues] = useState<string[] | null>(null);
  const selectedQueues = chosenQueues ?? allQueueValues;
  const tags = useLookup<TagRef>(visited.has("search") ? "/tags/list" : null, "tags");
  const users = useLookup<UserOption>(
    admin && visited.has("search") ? "/users/list" : null,
    "users",
  );

  const allQueues = allQueueValues.every((v) => selectedQueues.includes(v));
  const viewer = useMemo(() => viewerOfUser(user), [user]);
  const scope = {
    viewer,
    showAll: admin && showAll,
    queueIds: selectedQueues.filter((v) => v !== NO_QUEUE).map(Number),
    noQueue: selectedQueues.includes(NO_QUEUE),
    allQueues,
    live: "full" as const,
  };
  // A user with every queue selected lets the server apply their own queues (their tickets
  // transferred into other queues stay in view); otherwise the selection is sent as it is.
  const sendQueueIds = admin || !allQueues;
  const ready = !admin || companyQueues.ready;
  const common = { scope, sendQueueIds, enabled: ready };
  const openList = useTicketList({ ...common, status: "open", sort });
  const pendingList = useTicketList({ ...common, status: "pending", sort });
  const closedList = useTicketList({
    ...common,
    status: "closed",
    enabled: ready && visited.has("closed"),
  });
  const searchList = useTicketList({
    ...common,
    scope: { ...scope, live: "replace" },
    searchParam: search,
    tagIds: tagIds.map(Number),
    userIds: userIds.map(Number),
    enabled: ready && visited.has("search"),
  });

  const chooseTab = (value: string) => {
    const next = value as Tab;
    setTab(next);
    setVisited((old) => old.has(next) ? old : new Set([...old, next]));
  };

  const open = useCallback((ticket: Ticket) => onOpen(ticket.uuid), [onOpen]);
  const accept = useCallback(async (ticket: Ticket) => {
    setAcceptingId(ticket.id);
    try {
      await api.put(`/tickets/${ticket.id}`, { action: "accept" });
      setTab("open");
      setOpenTab("open");
      onOpen(ticket.uuid);
    } catch {
      // shown by the api client
    } finally {
      setAcceptingId(null);
    }
  }, [onOpen]);

  const listProps = {
    selectedUuid,
    narrow,
    admin,
    showUser: admin && showAll,
    onOpen: open,
    onAccept: accept,
    onPeek: setPeek,
    acceptingId,
  };
  const sortedProps = { ...listProps, sort };
  const queueSummary = allQueues
    ? t("tickets.queues.all")
    : t("tickets.queues.count", { count: selectedQueues.length });

  return (
    <div className="tm">
      <TabsRoot value={tab} onValueChange={chooseTab}>
        <TabList className="tm-tabs" label={t("tickets.title")}>
          <Tab
            value="open"
            className="tm-tab"
            data-testid="tab-open"
            aria-controls={controls("list-open", "list-pending")}
          >
            <MessageSquareText size={17} aria-hidden="true" />
            {t("tickets.tabs.open")}
          </Tab>
          <Tab
            value="closed"
            className="tm-tab"
            data-testid="tab-closed"
            aria-controls={visited.has("closed") ? controls("list-closed") : undefined}
          >
            <CheckCheck size={17} aria-hidden="true" />
            {t("tickets.tabs.closed")}
          </Tab>
          <Tab
            value="search"
            className="tm-tab"
            data-testid="tab-search"
            aria-controls={visited.has("search") ? controls("list-search") : undefined}
          >
            <Search size={17} aria-hidden="true" />
            {t("tickets.tabs.search")}
          </Tab>
        </TabList>
      </TabsRoot>

      <div className="tm-toolbar">
        <button
          type="button"
          className="btn btn-primary tm-new"
          onClick={() => setNewOpen(true)}
          data-testid="new-ticket"
        >
          <Plus size={16} aria-hidden="true" />
          {t("tickets.new")}
        </button>
        {admin
          ? (
            <Switch
              checked={showAll}
              onChange={setShowAll}
              label={t("tickets.showAll")}
              testId="show-all"
            />
          )
          : null}
        <span className="tm-spacer" />
        <button
          type="button"
          className="btn btn-ghost tm-sort"
          aria-pressed={sort === "timeLeft"}
          title={t("tickets.sort.hint")}
          onClick={() => setSort(sort === "timeLeft" ? "updatedAt" : "timeLeft")}
          data-testid="sort-time-left"
        >
          <Timer size={15} aria-hidden="true" />
          {sort === "timeLeft" ? t("tickets.sort.timeLeft") : t("tickets.sort.activity")}
        </button>
        <MultiSelect
          label={t("tickets.queues.label")}
          icon={<Layers size={15} aria-hidden="true" />}
          summary={queueSummary}
          options={[
            ...queueOptions.map((q) => ({ value: String(q.id), label: q.name, color: q.color })),
            { value: NO_QUEUE, label: t("tickets.noQueue") },
          ]}
          selected={selectedQueues}
          onChange={setChosenQueues}
          filtered={!allQueues}
          testId="queue-filter"
        />
      </div>

      {tab === "search"
        ? (
          <div className="tm-search">
            <div className="tm-search-box">
              <Search size={16} aria-hidden="true" />
              <input
                className="tm-search-input"
                type="search"
                value={search}
                placeholder={t("tickets.search.placeholder")}
                aria-label={t("tickets.search.placeholder")}
                onChange={(e) => setSearch(e.target.value)}
                data-testid="ticket-search"
                autoFocus
              />
            </div>
            <div className="tm-filters">
              <MultiSelect
                label={t("tickets.search.tags")}
                icon={<Tag size={15} aria-hidden="true" />}
                summary={tagIds.length
                  ? t("tickets.search.tagsCount", { count: tagIds.length })
                  : t("tickets.search.tags")}
                options={tags.items.map((g) => ({
                  value: String(g.id),
                  label: g.name,
                  color: g.color,
                }))}
                selected={tagIds}
                onChange={setTagIds}
                empty={t("tickets.tags.none")}
                testId="tag-filter"
              />
              {admin
                ? (
                  <MultiSelect
                    label={t("tickets.search.users")}
                    icon={<Users size={15} aria-hidden="true" />}
                    summary={userIds.length
                      ? t("tickets.search.usersCount", { count: userIds.length })
                      : t("tickets.search.users")}
                    options={users.items.map((u) => ({ value: String(u.id), label: u.name }))}
                    selected={userIds}
                    onChange={setUserIds}
                    testId="user-filter"
                  />
                )
                : null}
            </div>
          </div>
        )
        : null}

      {tab === "open"
        ? (
          <TabsRoot value={openTab} onValueChange={(v) => setOpenTab(v as "open" | "pending")}>
            <TabList className="tm-subtabs" label={t("tickets.tabs.open")}>
              <Tab
                value="open"
                className="tm-subtab"
                data-testid="subtab-open"
                aria-controls={controls("list-open")}
              >
                {t("tickets.tabs.assigned")}
                <span className="tm-count" data-testid="count-open">{openList.count}</span>
              </Tab>
              <Tab
                value="pending"
                className="tm-subtab"
                data-testid="subtab-pending"
                aria-controls={controls("list-pending")}
              >
                {t("tickets.tabs.pending")}
                <span className="tm-count" data-pending="" data-testid="count-pending">
                  {pendingList.count}
                </span>
              </Tab>
            </TabList>
          </TabsRoot>
        )
        : null}

      <div className="tm-lists">
        <TicketList
          {...sortedProps}
          list={openList}
          testId="list-open"
          hidden={tab !== "open" || openTab !== "open"}
        />
        <TicketList
          {...sortedProps}
          list={pendingList}
          testId="list-pending"
          hidden={tab !== "open" || openTab !== "pending"}
        />
        {visited.has("closed")
          ? (
            <TicketList
              {...listProps}
              list={closedList}
              testId="list-closed"
              hidden={tab !== "closed"}
            />
          )
          : null}
        {visited.has("search")
          ? (
            <TicketList
              {...listProps}
              list={searchList}
              testId="list-search"
              hidden={tab !== "search"}
            />
          )
          : null}
      </div>

      {newOpen
        ? (
          <NewTicketDialog
            onClose={() => setNewOpen(false)}
            onOpenTicket={(uuid) => {
              setNewOpen(false);
              setTab("open");
              setOpenTab("open");
              onOpen(uuid);
            }}
          />
        )
        : null}
      {peek ? <PeekDialog ticket={peek} onClose={() => setPeek(null)} /> : null}
    </div>
  );
}
