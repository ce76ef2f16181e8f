// Every story's play function runs as a test (Storybook portable stories in happy-dom), in shards:
// the stories of one shard file load and run in one worker, so the console's stories use both
// cores (one file of every story was the longest file of the run). A story module belongs to one
// shard by its place among the sorted paths; each shard file names its number.
import { composeStories } from '@storybook/react-vite';
import { describe, it } from 'vitest';

export const STORY_SHARDS = 2;

const loaders = import.meta.glob<Record<string, unknown>>('../../src/console/**/*.stories.tsx');

/** The story modules of shard `shard` (0-based), each run by its own tests. */
export async function defineStoryTests(shard: number): Promise<void> {
  const paths = Object.keys(loaders)
    .filter((path) => !path.endsWith('FormScreen.stories.tsx')) // tests/console/form-screen.test.tsx
    .sort()
    .filter((_, i) => i % STORY_SHARDS === shard);
  for (const path of paths) {
    const module = await loaders[path]();
    describe(path.replace(/^.*src\/console\//, ''), () => {
      const composed = composeStories(module as Parameters<typeof composeStories>[0]) as Record<string, { run: () => Promise<void> }>;
      for (const [name, story] of Object.entries(composed)) {
        it(name, async () => {
          await story.run();
        });
      }
    });
  }
}
