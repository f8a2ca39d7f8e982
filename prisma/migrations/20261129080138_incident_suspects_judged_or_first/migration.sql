-- CreateIndex
CREATE INDEX "incident_suspects_judged_or_first_idx" ON "incident_suspects"("incident_id") WHERE (verdict IS NOT NULL OR rank = 1);
