import type { ReactNode } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "react-i18next";
import {
  DndContext,
  type DragEndEvent,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import type { KanbanCard } from "../../contract/kanban_types.ts";
import type { LaneKey } from "./board_state.ts";
import { Card, DraggedCard } from "./Card.tsx";
import type { LaneSectionProps } from "./Lane.tsx";
import { laneJump } from "./keyboard.ts";

/**
 * The board's drag and drop (@dnd-kit/core, with keyboard support: about 14 KiB gzipped), loaded
 * by Board.tsx once the board shows, not with the page (issue 33): the lanes and cards are
 * readable and their links work before it arrives.
 */
export function DragBoard(
  { children, dragged, onStart, onCancel, onEnd, titleOf }: {
    children: ReactNode;
    /** The card being dragged: its copy is drawn in the overlay, above the lanes. */
    dragged: KanbanCard | null;
    onStart: (lane: LaneKey | undefined, id: unknown) => void;
    onCancel: () => void;
    onEnd: (event: DragEndEvent) => void;
    titleOf: (id: unknown) => string | undefined;
  },
) {
  const { t } = useTranslation();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: laneJump }),
  );
  return (
    <DndContext
      sensors={sensors}
      onDragStart={({ active }) =>
        onStart(active.data.current?.lane as LaneKey | undefined, active.id)}
      onDragCancel={onCancel}
      onDragEnd={onEnd}
      accessibility={{
        screenReaderInstructions: { draggable: t("kanban.a11y.instructions") },
        announcements: {
          onDragStart: ({ active }) => t("kanban.a11y.picked", { id: active.id }),
          onDragOver: ({ active, over }) =>
            over ? t("kanban.a11y.over", { id: active.id, lane: titleOf(over.id) }) : undefined,
          onDragEnd: ({ active, over }) =>
            over
              ? t("kanban.a11y.dropped", { id: active.id, lane: titleOf(over.id) })
              : t("kanban.a11y.cancelled", { id: active.id }),
          onDragCancel: ({ active }) => t("kanban.a11y.cancelled", { id: active.id }),
        },
      }}
    >
      {children}
      {
        // In the body: no lane's scroll box clips it, and it is drawn above every lane.
        createPortal(
          <DragOverlay zIndex={60}>{dragged ? <DraggedCard card={dragged} /> : null}</DragOverlay>,
          document.body,
        )
      }
    </DndContext>
  );
}

/** A card that is also a drag handle. */
export function DraggableCard({ card, lane }: { card: KanbanCard; lane: LaneKey }) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({
    id: card.id,
    data: { lane },
  });
  return (
    <Card
      card={card}
      lane={lane}
      drag={{ ref: setNodeRef, dragging: isDragging, handle: { ...attributes, ...listeners } }}
    />
  );
}

/** A lane's box that is also a drop target (`data-over` while a card is above it). */
export function DropLane({ lane, children, ...rest }: LaneSectionProps) {
  const { setNodeRef, isOver } = useDroppable({ id: `lane-${lane}`, data: { lane } });
  return (
    <section
      ref={setNodeRef}
      className="kb-lane"
      data-over={isOver || undefined}
      data-testid="kanban-lane"
      data-lane={lane}
      {...rest}
    >
      {children}
    </section>
  );
}
