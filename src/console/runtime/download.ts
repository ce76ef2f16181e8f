// Saving a generated file (exports): an object URL and a download link. Tests and stories swap the
// sink to look at what would be saved.
export type DownloadSink = (blob: Blob, fileName: string) => void;

const browserSink: DownloadSink = (blob, fileName) => {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The click has started the download; the URL can go once the browser has read it.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};

let sink: DownloadSink = browserSink;

export function saveFile(blob: Blob, fileName: string): void {
  sink(blob, fileName);
}

/** Replaces the sink; answers a function that restores the browser's. */
export function setDownloadSink(next: DownloadSink): () => void {
  sink = next;
  return () => {
    sink = browserSink;
  };
}
