/**
 * The environment bash commands get: an allow-list of the parent's variables
 * (what a shell and the usual toolchains need), minus anything whose value
 * still looks like a credential, plus settings that keep commands
 * non-interactive. A variable not on the list is not passed, whatever its
 * name: new secrets are out by default.
 */

/** The system basics every command gets (both lists below start from them). */
const SYSTEM_BASICS = ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "TZ", "TMPDIR", "TEMP", "TMP"];

/** Never secret by name, whatever their names look like. */
const KEEP = new Set([...SYSTEM_BASICS, "PWD", "COLORTERM", "EDITOR", "VISUAL", "NODE_PATH"]);

/**
 * Where host services listen (the session bus, ssh and gpg agents, the
 * display, docker, the terminal multiplexer, the editor): never passed, even
 * when a prefix such as XDG_ would list them
 * (docs/tool-sandbox.md#unix-sockets-and-host-services).
 */
export const HOST_SOCKET_VARIABLES = new Set([
  "XDG_RUNTIME_DIR",
  "DBUS_SESSION_BUS_ADDRESS",
  "DBUS_SYSTEM_BUS_ADDRESS",
  "AT_SPI_BUS_ADDRESS",
  "SSH_AUTH_SOCK",
  "SSH_AGENT_PID",
  "GPG_AGENT_INFO",
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "WAYLAND_SOCKET",
  "XAUTHORITY",
  "PULSE_SERVER",
  "PIPEWIRE_REMOTE",
  "DOCKER_HOST",
  "CONTAINER_HOST",
  "TMUX",
  "STY",
  "KITTY_LISTEN_ON",
  "SWAYSOCK",
  "I3SOCK",
  "NVIM",
  "NVIM_LISTEN_ADDRESS",
  "VSCODE_IPC_HOOK_CLI",
  "VSCODE_GIT_IPC_HANDLE",
]);

/** Known secret variables (also caught by the name pattern; listed so the intent is explicit). */
export const KNOWN_SECRETS = [
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "MISTRAL_API_KEY",
  "GROQ_API_KEY",
  "OPENROUTER_API_KEY",
  "DEEPSEEK_API_KEY",
  "XAI_API_KEY",
  "AZURE_OPENAI_API_KEY",
  "COHERE_API_KEY",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "NPM_TOKEN",
  "HF_TOKEN",
  "HUGGING_FACE_HUB_TOKEN",
  "DATABASE_URL",
  "SLACK_BOT_TOKEN",
  "STRIPE_SECRET_KEY",
] as const;

/** Name parts that mark a secret anywhere in the name (GITHUBTOKEN, DB_PASSWORD, MY_API_KEY). */
const SECRET_SUBSTRING = /(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|APIKEY|API_KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL|COOKIE)/i;
/** Whole name segments that mark a secret (STRIPE_KEY, DB_PASS, BASIC_AUTH), but not GIT_AUTHOR_NAME. */
const SECRET_SEGMENTS = new Set(["KEY", "KEYS", "PASS", "AUTH", "PAT", "SESSION", "PRIVATE"]);
/** Values that are credentials whatever the variable is called. */
const SECRET_VALUE =
  /^(sk-|sk-ant-|ghp_|gho_|ghu_|ghs_|github_pat_|glpat-|xox[abpr]-|AKIA[0-9A-Z]{12}|AIza[0-9A-Za-z_-]{20}|hf_[A-Za-z0-9]{20}|npm_[A-Za-z0-9]{20})/;
/** URLs with a password in them (postgres://user:pass@host). */
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i;

export function isSecretVariable(name: string, value: string): boolean {
  if (KEEP.has(name) || name.startsWith("LC_")) return false;
  if ((KNOWN_SECRETS as readonly string[]).includes(name)) return true;
  if (
    SECRET_SUBSTRING.test(name) ||
    name
      .toUpperCase()
      .split("_")
      .some((part) => SECRET_SEGMENTS.has(part))
  )
    return true;
  return SECRET_VALUE.test(value) || URL_WITH_PASSWORD.test(value);
}

/** Passed to commands (with LC_* and XDG_*, less HOST_SOCKET_VARIABLES), unless the value looks like a credential. */
export const ALLOWED_ENV = new Set([
  ...SYSTEM_BASICS,
  "COLORTERM",
  "EDITOR",
  "VISUAL",
  "PAGER",
  "NODE_PATH",
  "NODE_OPTIONS",
  "NODE_ENV",
  "NVM_DIR",
  "NVM_BIN",
  "JAVA_HOME",
  "GOPATH",
  "GOROOT",
  "GOFLAGS",
  "CARGO_HOME",
  "RUSTUP_HOME",
  "PYENV_ROOT",
  "VIRTUAL_ENV",
  "CONDA_PREFIX",
  "PYTHONPATH",
  "GEM_HOME",
  "GEM_PATH",
  "BUN_INSTALL",
  "DENO_DIR",
  "PNPM_HOME",
  "ANDROID_HOME",
  "GIT_AUTHOR_NAME",
  "GIT_AUTHOR_EMAIL",
  "GIT_COMMITTER_NAME",
  "GIT_COMMITTER_EMAIL",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "CI",
  "FORCE_COLOR",
  "NO_COLOR",
]);

export function childEnvironment(source: Record<string, string | undefined>, extraAllowed: readonly string[] = []): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || HOST_SOCKET_VARIABLES.has(name)) continue;
    const listed = ALLOWED_ENV.has(name) || extraAllowed.includes(name) || name.startsWith("LC_") || name.startsWith("XDG_");
    if (!listed || isSecretVariable(name, value)) continue;
    env[name] = value;
  }
  env.PAGER = "cat";
  env.GIT_PAGER = "cat";
  env.GIT_TERMINAL_PROMPT = "0";
  // A repository can carry a bare repository as plain files (fixtures/x.git/config): git would read its
  // config, whose core.pager, aliases and core.sshCommand are commands, for any git run inside it.
  // Found only when named (--git-dir), never by walking up from the folder (git >= 2.38).
  env.GIT_CONFIG_COUNT = "1";
  env.GIT_CONFIG_KEY_0 = "safe.bareRepository";
  env.GIT_CONFIG_VALUE_0 = "explicit";
  return env;
}
