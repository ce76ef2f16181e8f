// Row types of the chatbot tables (migration 0480_conversations): flows with their drafts and
// published versions, agents, conversations with their transcripts, and the flows' step counts
// and incidents. Composed into the one Database in src/engine/database.ts.
import type { Generated } from 'kysely';
import type { FlowDefinition } from '../../generated/types.gen.ts';
import type { BigCount, BigId, BigRef, Json, JsonDefault, Timestamp } from './columns.ts';

export interface FlowsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  description: string | null;
  /** What the editor last saved (it may break the rules: only a published version must keep them). */
  draft: Json<FlowDefinition>;
  published_version: number | null;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Training files read so far (migration 0495): each upload takes the next number. */
  training_uploads: Generated<number>;
  /** The upload the flow answers with; null: answers are matched as written only. */
  training_upload: number | null;
  training_phrases: Generated<number>;
  training_file: string | null;
  training_at: Timestamp | null;
}

/** A training file's row: an example phrase and the response it means (by label or keyword). */
export interface FlowTrainingPhrasesTable {
  flow_id: number;
  company_id: number;
  upload: number;
  /** The phrase as answers are compared (normalizeAnswer). */
  phrase_key: string;
  phrase: string;
  meaning: string;
  /** Its row in the file. */
  row: number;
}

export interface FlowVersionsTable {
  flow_id: number;
  version: number;
  definition: Json<FlowDefinition>;
  published_by: number | null;
  published_at: Timestamp;
}

export interface AgentsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  channel_id: number;
  flow_id: number;
  keywords: JsonDefault<string[]>;
  active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ConversationsTable {
  id: BigId;
  company_id: number;
  channel_id: number;
  agent_id: number | null;
  flow_id: number;
  flow_version: number;
  /** The person's address on the channel (a phone number, a Messenger PSID, an RCS MSISDN). */
  contact: string;
  state: string;
  step_id: string | null;
  /** The runtime's Session (src/core/flows/runtime.ts). */
  session: Json<unknown>;
  /** When the no-reply timer fires; null: no timer. */
  timer_at: Timestamp | null;
  started_at: Timestamp;
  updated_at: Timestamp;
  ended_at: Timestamp | null;
  /** The campaign whose launch started it (migration 0493); null when a person started it. */
  campaign_id: Generated<number | null>;
}

export interface ConversationTurnsTable {
  id: BigId;
  conversation_id: BigRef;
  company_id: number;
  /** in: the person; out: the flow's message; note: what happened without a message (a timer, a failed call). */
  direction: string;
  step_id: string | null;
  body: string;
  message_id: BigRef | null;
  at: Timestamp;
  /** A note's kind and values (conversations/notes.ts); null for a message or a note written before. */
  note: Json<unknown> | null;
}

export interface FlowStepCountsTable {
  flow_id: number;
  version: number;
  step_id: string;
  event: string;
  /** Which of the step and event's rows (migration 0494: concurrent turns add to different rows). */
  shard: number;
  count: BigCount;
}

export interface FlowIncidentsTable {
  id: BigId;
  company_id: number;
  flow_id: number;
  conversation_id: BigRef | null;
  step_id: string | null;
  /** The English line (logs, rows written before notes had kinds). */
  detail: string;
  at: Timestamp;
  /** Its kind and values (conversations/notes.ts): what readers get in their own language. */
  note: Json<unknown> | null;
}

export interface ConversationTables {
  flows: FlowsTable;
  flow_versions: FlowVersionsTable;
  agents: AgentsTable;
  conversations: ConversationsTable;
  conversation_turns: ConversationTurnsTable;
  flow_step_counts: FlowStepCountsTable;
  flow_incidents: FlowIncidentsTable;
  flow_training_phrases: FlowTrainingPhrasesTable;
}
