/**
 * The brand events' tables (migration 0003 of event-migrations.ts, `announce` from its part of 0014), as the events
 * product reads them (issue 30). Since 0024 (ADR 0049) a consumer's deliveries are `brand.event` jobs on the one
 * queue; `event_deliveries` stays for the databases that have it and is read only by migration 0024.
 */
import type { Millis } from '../../db/column-codec.js';

/** 0003: one row per `brand.saved` event, written in the save's transaction; never updated. */
export interface BrandEventsTable {
  id: string;
  brand_id: string;
  domain: string;
  type: string;
  /** JSON array of BrandChange names, as text. */
  changes: string;
  /** 1 when the save inserted the brand, 0 otherwise (an integer on both dialects). */
  created: number;
  created_at: Millis;
  /** 0014: JSON BrandAnnouncement, or null when the save announces nothing (absent on events saved before). */
  announce: string | null;
}

/** 0003: a named consumer of brand events; it gets every event saved after created_at. */
export interface EventConsumersTable {
  name: string;
  created_at: Millis;
}

/** The tables the events product reads: its narrowing of the kernel's handle (`database.tables<EventTables>()`). */
export interface EventTables {
  brand_events: BrandEventsTable;
  event_consumers: EventConsumersTable;
}
