// Which of a row's actions show as buttons and which go into its "more actions" menu:
// every action of a row must be reachable at 1366 px without sideways scrolling, so the actions
// column has a budget (two or three short buttons) and is pinned to the table's right edge; what does
// not fit the budget is one "⋮" button away. Widths are estimated from the labels (uppercase,
// about 10 px a letter at most, plus padding), generous so a row never overflows its column.

/** The room the actions column may take, beside the columns of the record. */
export const ACTIONS_BUDGET_PX = 280;
/** The "⋮" button. */
export const MORE_BUTTON_PX = 40;

export const buttonWidth = (label: string) => label.length * 10 + 28;

/** How many of these labels (in order) show as buttons; the rest go into the menu. */
export function inlineCount(labels: readonly string[], budget = ACTIONS_BUDGET_PX): number {
  const total = labels.reduce((w, l) => w + buttonWidth(l), 24);
  if (total <= budget) return labels.length;
  let used = 24 + MORE_BUTTON_PX;
  let n = 0;
  for (const l of labels) {
    if (used + buttonWidth(l) > budget) break;
    used += buttonWidth(l);
    n++;
  }
  return n;
}

/** The actions column's width for rows that may show these labels. */
export function actionsColumnWidth(labels: readonly string[], budget = ACTIONS_BUDGET_PX): number {
  const n = inlineCount(labels, budget);
  const shown = labels.slice(0, n).reduce((w, l) => w + buttonWidth(l), 24);
  return Math.max(120, Math.ceil(shown + (n < labels.length ? MORE_BUTTON_PX : 0)));
}
