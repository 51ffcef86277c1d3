import type { KeyboardCoordinateGetter } from "@dnd-kit/core";

/**
 * Keyboard moves on the board: Left and Right carry a picked-up card to the centre of the
 * previous or next lane (the sensor's default steps 25 px at a time); Up and Down scroll within
 * a lane by a card's height.
 */
export const laneJump: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
  const rect = context.collisionRect;
  if (!rect) return undefined;
  if (event.code === "ArrowUp" || event.code === "ArrowDown") {
    event.preventDefault();
    const step = event.code === "ArrowDown" ? rect.height : -rect.height;
    return { x: currentCoordinates.x, y: currentCoordinates.y + step };
  }
  if (event.code !== "ArrowRight" && event.code !== "ArrowLeft") return undefined;
  event.preventDefault();
  const centre = rect.left + rect.width / 2;
  const lanes = [...context.droppableRects.values()].sort((a, b) => a.left - b.left);
  const next = event.code === "ArrowRight"
    ? lanes.find((r) => r.left > centre)
    : lanes.filter((r) => r.left + r.width < centre).pop();
  if (!next) return undefined;
  return { x: next.left + (next.width - rect.width) / 2, y: currentCoordinates.y };
};
