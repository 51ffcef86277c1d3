import { type ReactNode, useEffect, useRef, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { useInfiniteScroll } from "../lib/list/hooks.ts";
import type { ListController } from "../lib/list/list_controller.ts";
import { Card } from "./Card.tsx";
import type { DragLayer } from "./Board.tsx";
import type { LaneKey } from "./board_state.ts";
import type { KanbanCard } from "../../contract/kanban_types.ts";

/**
 * One lane: a drop target holding its cards, read a page at a time (20) as it scrolls, so a
 * lane stays fast however many tickets are open.
 */
export function Lane(
  { lane, title, color, controller, drag }: {
    lane: LaneKey;
    title: string;
    color?: string;
    controller: ListController<KanbanCard>;
    /** The drag layer, once loaded (drag.tsx): the lane is then a drop target. */
    drag: DragLayer | null;
  },
) {
  const { t } = useTranslation();
  const state = useSyncExternalStore(
    controller.subscribe,
    controller.getState,
    controller.getState,
  );
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
  const Section = drag?.DropLane ?? PlainLane;
  return (
    <Section lane={lane} aria-label={title}>
      <header className="kb-lane-head" style={color ? { borderTopColor: color } : undefined}>
        <h2>{title}</h2>
        <span className="kb-lane-count">{state.items.length}{state.hasMore ? "+" : ""}</span>
      </header>
      <div className="kb-lane-scroll" ref={scroll}>
        <ul className="kb-cards">
          {state.items.map((card) =>
            drag
              ? <drag.DraggableCard key={card.id} card={card} lane={lane} />
              : <Card key={card.id} card={card} lane={lane} />
          )}
        </ul>
        {state.loading
          ? <div className="kb-lane-note" role="status">{t("common.loading")}</div>
          : null}
        {!state.loading && state.items.length === 0
          ? <div className="kb-lane-note">{t("kanban.empty")}</div>
          : null}
      </div>
    </Section>
  );
}

export type LaneSectionProps = { lane: LaneKey; "aria-label": string; children: ReactNode };

/** The lane's box before the drag layer loads (drag.tsx's DropLane draws the same). */
function PlainLane({ lane, children, ...rest }: LaneSectionProps) {
  return (
    <section className="kb-lane" data-testid="kanban-lane" data-lane={lane} {...rest}>
      {children}
    </section>
  );
}
