// Ready-to-paste configuration for an alert source: Alertmanager's webhook receiver, Grafana's
// webhook contact point, or a PagerDuty Events API v2 integration pointed at this server.

/**
 * The Alertmanager configuration: a route and a webhook receiver with Bearer credentials.
 * `timings` are Alertmanager's own defaults unless given (the test suite runs this configuration
 * with 1 s ones).
 */
export function alertmanagerConfig(url: string, token: string, timings = { groupWait: '30s', groupInterval: '5m' }): string {
  return `route:
  receiver: hookline
  group_by: [alertname, service]
  group_wait: ${timings.groupWait}
  group_interval: ${timings.groupInterval}
  repeat_interval: 4h
receivers:
  - name: hookline
    webhook_configs:
      - url: ${url}
        send_resolved: true
        max_alerts: 100
        http_config:
          authorization:
            type: Bearer
            credentials: ${token}
`;
}

/** Grafana's contact point as file provisioning writes it (the same fields as its Webhook form). */
export function grafanaContactPoint(url: string, token: string): string {
  return `apiVersion: 1
contactPoints:
  - orgId: 1
    name: hookline
    receivers:
      - uid: hookline
        type: webhook
        settings:
          url: ${url}
          httpMethod: POST
          authorization_scheme: Bearer
          authorization_credentials: ${token}
          maxAlerts: 100
`;
}

/** What a tool that pages PagerDuty needs: the events address and the routing (integration) key. */
export function pagerDutySettings(url: string, token: string): string {
  return `Events API v2 URL: ${url}
Routing key (integration key): ${token}

curl -X POST ${url} -H 'Content-Type: application/json' -d '{
  "routing_key": "${token}",
  "event_action": "trigger",
  "dedup_key": "checkout/error-rate",
  "payload": {"summary": "Checkout error rate above 5%", "source": "prometheus", "component": "checkout", "severity": "critical"}
}'
`;
}
