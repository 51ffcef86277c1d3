import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { DragEndEvent } from "@dnd-kit/core";
import { api } from "../lib/api.ts";
import type { ListController } from "../lib/list/list_controller.ts";
import { useUser } from "../lib/session.ts";
import { viewerOfUser } from "../../contract/ticket_audience.ts";
import { realtime, type Room, useRealtime, useRoomSync } from "../lib/socket.ts";
import type { TagView } from "../../contract/tag_types.ts";
import { toast } from "../lib/toast.ts";
import { cardOf, laneController, type LaneKey, laneOfCard, onBoard } from "./board_state.ts";
import { Lane } from "./Lane.tsx";
import type { KanbanCard } from "../../contract/kanban_types.ts";
import { deferredModule } from "../lib/ui/deferred.tsx";

/** The drag-and-drop layer (drag.tsx: @dnd-kit), loaded when the board first shows. */
const DRAG = deferredModule(() => import("./drag.tsx"));
export type DragLayer = typeof import("./drag.tsx");

/** Ticket updates reach a socket through the rooms of the statuses it follows. */
const ROOMS: Room[] = [["joinTickets", "open"], ["joinTickets", "pending"]];

/**
 * The board (seeds/001 section 2 'Kanban board'): 'Em aberto' and one lane per kanban tag.
 * A drop calls POST /ticket-tags/:id/move (one transaction) and shows 'Ticket Tag Removido!' /
 * 'Ticket Tag Adicionado com Sucesso!'; cards follow the company's ticket updates live, so a
 * card another attendant moves moves here too; a new, renamed or removed kanban tag redraws the
 * lanes.
 */
export function Board() {
  const { t } = useTranslation();
  const user = useUser();
  const viewer = useMemo(() => viewerOfUser(user), [user]);
  const [tags, setTags] = useState<TagView[] | null>(null);
  const [drag, setDrag] = useState<DragLayer | null>(DRAG.current);
  const controllers = useRef(new Map<LaneKey, ListController<KanbanCard>>());
  const laneIds = useMemo(() => new Set((tags ?? []).map((g) => g.id)), [tags]);
  const laneIdsRef = useRef(laneIds);
  laneIdsRef.current = laneIds;

  const controllerOf = (lane: LaneKey) => {
    let controller = controllers.current.get(lane);
    if (!controller) {
      controller = laneController(lane, () => markRead());
      controllers.current.set(lane, controller);
    }
    return controller;
  };
  // Lanes come and go with the kanban tags; when they change, the cards are read again (a card
  // of a lane that went back to being a plain tag now belongs in 'Em aberto').
  const readLanes = () =>
    api.get<{ lista: TagView[] }>("/tags/kanban").then((a) => {
      const before = [...laneIdsRef.current].join();
      setTags(a.lista);
      if (tags !== null && a.lista.map((g) => g.id).join() !== before) {
        for (const controller of controllers.current.values()) void controller.reload();
      }
    }).catch(() => {});
  const markRead = useRoomSync(ROOMS, () => {
    for (const controller of controllers.current.values()) void controller.refresh();
  });

  useEffect(() => {
    // Fetched beside the lanes: the cards show (and their links work) without waiting for it.
    void DRAG.load().then((module) => setDrag(() => module)).catch(() => {});
    void readLanes();
    const leaves = ROOMS.map(([event, data]) => realtime.join(event, data));
    return () => leaves.forEach((leave) => leave());
  }, []);
  useRealtime("tag", () => void readLanes());
  useRealtime("ticket", (event) => {
    if (event.action === "delete") {
      for (const c of controllers.current.values()) c.remove(event.ticketId);
      return;
    }
    if (event.action !== "update") return;
    place(cardOf(event.ticket, laneIdsRef.current));
  });

  /** Puts a card in the lane it belongs in now, and out of every other one. */
  const place = (card: KanbanCard) => {
    const target = onBoard(card, viewer) ? laneOfCard(card, laneIdsRef.current) : null;
    for (const [lane, controller] of controllers.current) {
      if (lane === target) controller.upsert(card);
      else controller.remove(card.id);
    }
  };

  // The card being dragged: its copy is drawn in the overlay, above the lanes.
  const [dragged, setDragged] = useState<KanbanCard | null>(null);
  const cardIn = (lane: LaneKey | undefined, id: unknown) =>
    lane === undefined ? undefined : controllerOf(lane).state.items.find((c) => c.id === id);

  const move = async ({ active, over }: DragEndEvent) => {
    setDragged(null);
    const from = active.data.current?.lane as LaneKey | undefined;
    const to = over?.data.current?.lane as LaneKey | undefined;
    if (from === undefined || to === undefined || from === to) return;
    const card = cardIn(from, active.id);
    if (!card) return;
    const target = tags?.find((g) => g.id === to);
    // Shown at once; the answer (or the live update) confirms it, a refusal puts it back.
    place({
      ...card,
      tags: [
        ...card.tags.filter((g) => !g.kanban),
        ...(target
          ? [{ id: target.id, name: target.name, color: target.color, kanban: true }]
          : []),
      ],
    });
    try {
      await api.post(`/ticket-tags/${card.id}/move`, { tagId: to === "open" ? null : to });
      if (from !== "open") toast.success({ key: "kanban.removed" });
      if (to !== "open") toast.success({ key: "kanban.added" });
    } catch {
      place(card);
    }
  };

  const titleOf = (id: unknown) => {
    const lane = (id as string).replace("lane-", "");
    return lane === "open" ? t("kanban.openLane") : tags?.find((g) => String(g.id) === lane)?.name;
  };

  if (tags === null) {
    return <div className="kb-board-note" role="status">{t("common.loading")}</div>;
  }
  const board = (
    <div className="kb-board" data-testid="kanban-board" data-drag={drag ? "ready" : undefined}>
      <Lane
        lane="open"
        title={t("kanban.openLane")}
        controller={controllerOf("open")}
        drag={drag}
      />
      {tags.map((tag) => (
        <Lane
          key={tag.id}
          lane={tag.id}
          title={tag.name}
          color={tag.color}
          controller={controllerOf(tag.id)}
          drag={drag}
        />
      ))}
      {tags.length === 0
        ? (
          // No lane but 'Em aberto' (issue 24): say where lanes come from.
          <p className="kb-no-lanes empty-state" data-testid="kanban-no-lanes">
            <span>{t("kanban.noLanes")}</span>
            <a className="btn btn-ghost" href="/tags">{t("kanban.toTags")}</a>
          </p>
        )
        : null}
    </div>
  );
  if (!drag) return board;
  return (
    <drag.DragBoard
      dragged={dragged}
      onStart={(lane, id) => setDragged(cardIn(lane, id) ?? null)}
      onCancel={() => setDragged(null)}
      onEnd={(e) => void move(e)}
      titleOf={titleOf}
    >
      {board}
    </drag.DragBoard>
  );
}
