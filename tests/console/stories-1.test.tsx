// The first half of the stories (story-shard.ts).
import { defineStoryTests } from './story-shard.ts';

await defineStoryTests(0);
