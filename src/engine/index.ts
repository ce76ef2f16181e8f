// The messaging engine (dispatch, scheduler, channel adapters, receipts, flow sessions) arrives
// with the campaign issues; see ARCHITECTURE 5. Nothing here yet.
export const engineVersion = 0;
