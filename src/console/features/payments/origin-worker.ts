// The spec's worker (section 5): it posts the page's origin, which the buying page hands on as the
// address the card payment's response page is on (/epaycoResponse). A worker's origin is the
// page's own, read where no script of the page can have changed it.
postMessage(self.location.origin);
