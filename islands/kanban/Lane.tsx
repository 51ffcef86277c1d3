import { useEffect, useRef, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { useDroppable } from "@dnd-kit/core";
import { useInfiniteScroll } from "../lib/list/hooks.ts";
import type { ListController } from "../lib/list/list_controller.ts";
import { Card } from "./Card.tsx";
import type { LaneKey } from "./board_state.ts";
import type { KanbanCard } from "../../contract/kanban_types.ts";

/**
 * One lane: a drop target holding its cards, read a page at a time (20) as it scrolls, so a
 * lane stays fast however many tickets are open.
 */
export function Lane(
  { lane, title, color, controller }: {
    lane: LaneKey;
    title: string;
    color?: string;
    controller: ListController<KanbanCard>;
  },
) {
  const { t } = useTranslation();
  const state = useSyncExternalStore(
    controller.subscribe,
    controller.getState,
    controller.getState,
  );
  const { setNodeRef, isOver } = useDroppable({ id: `lane-${lane}`, data: { lane } });
  const scroll = useRef<HTMLDivElement>(null);
  useEffect(() => {
    void controller.reload();
  }, [controller]);
  useInfiniteScroll(
    scroll,
    state.hasMore && !state.loading,
    () => void controller.loadMore(),
    state.items.length,
  );
  return (
    <section
      ref={setNodeRef}
      className="kb-lane"
      data-over={isOver || undefined}
      data-testid="kanban-lane"
      data-lane={lane}
      aria-label={title}
    >
      <header className="kb-lane-head" style={color ? { borderTopColor: color } : undefined}>
        <h2>{title}</h2>
        <span className="kb-lane-count">{state.items.length}{state.hasMore ? "+" : ""}</span>
      </header>
      <div className="kb-lane-scroll" ref={scroll}>
        <ul className="kb-cards">
          {state.items.map((card) => <Card key={card.id} card={card} lane={lane} />)}
        </ul>
        {state.loading
          ? <div className="kb-lane-note" role="status">{t("common.loading")}</div>
          : null}
        {!state.loading && state.items.length === 0
          ? <div className="kb-lane-note">{t("kanban.empty")}</div>
          : null}
      </div>
    </section>
  );
}
