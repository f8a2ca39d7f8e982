-- Notes the deploys an insert made (dora_folds_due), an insert that waits on no other ingest.
-- Worker processes add them to the DORA figures after commit (fold_due_dora_figures).
CREATE OR REPLACE FUNCTION "deploys_note_dora_folds_due"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "dora_folds_due" ("deploy_id") SELECT "id" FROM inserted;
  RETURN NULL;
END $$;
