// Live changes of incidents (a new incident, a change of its status or fields, its suspects
// ranked again or judged), as the API's `incidentUpdated` subscriptions need them.
// src/http/incident-notices.ts implements it with PostgreSQL LISTEN/NOTIFY, so a change made by
// any process reaches every api process.

export interface IncidentChange {
  id: string;
  organizationId: string;
}

export interface IncidentChangeFeed {
  /** Changes of one organization's incidents, in the order they were committed. */
  subscribe(organizationId: string): AsyncIterable<IncidentChange>;
}
