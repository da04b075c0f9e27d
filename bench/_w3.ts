import Database from "better-sqlite3";
import { Checkpointer } from "../electron/core/store/checkpointer";
const db = new Database("/tmp/i15x/w3.db"); db.pragma("journal_mode=WAL"); db.exec("create table if not exists t(x)");
const cp = new Checkpointer(db, "/tmp/i15x/w3.db", undefined);
const ins = db.prepare("insert into t values (?)");
const t0 = Date.now();
while (Date.now() - t0 < 4000) { ins.run("x".repeat(3000)); cp.noteWrite(); }
console.log("checkpoints", cp.checkpoints, "alive", cp.threadAlive, cp.lastError);
setTimeout(() => { console.log("later", cp.checkpoints); db.close(); void cp.stop(); }, 500);
