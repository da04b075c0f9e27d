/**
 * The seccomp program bubblewrap loads (`--seccomp FD`) before it starts a
 * sandboxed command (docs/tool-sandbox.md#unix-sockets-and-host-services):
 * `socket(AF_UNIX, …)` and `socket(AF_VSOCK, …)` fail with EPERM, so the
 * command can reach no Unix socket (the session bus, an ssh or gpg agent,
 * docker, an abstract-namespace listener) and no VM socket, whatever the
 * mounts show it. `socketpair` stays allowed: node/libuv and python make
 * their pipes with it. `io_uring_setup` fails with ENOSYS (callers fall back
 * to plain system calls), since io_uring can create sockets without calling
 * `socket`. A process of another ABI (i386, x32, 32-bit ARM), whose system
 * call numbers this program does not check, is killed.
 *
 * Classic BPF over `struct seccomp_data` (nr at 0, arch at 4, args[0] at 16),
 * little-endian like both architectures it knows.
 */

/** One `struct sock_filter`: u16 code, u8 jt, u8 jf, u32 k. */
interface Insn {
  code: number;
  k: number;
  jt?: string;
  jf?: string;
  label?: string;
}

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;

const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const RET_KILL_PROCESS = 0x80000000;
const EPERM = 1;
const ENOSYS = 38;

const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
const X32_SYSCALL_BIT = 0x40000000;
const AF_UNIX = 1;
const AF_VSOCK = 40;

const NR = {
  x86_64: { socket: 41, ioUringSetup: 425 },
  aarch64: { socket: 198, ioUringSetup: 425 },
} as const;

const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
/** Low 32 bits of args[0]: the kernel reads socket's `int domain` from them. */
const OFFSET_ARG0_LOW = 16;

const ld = (k: number, label?: string): Insn => ({ code: LD_W_ABS, k, label });
const jeq = (k: number, jt: string, jf: string): Insn => ({ code: JEQ_K, k, jt, jf });
const ret = (k: number, label: string): Insn => ({ code: RET_K, k, label });
const NEXT = "";

const PROGRAM: Insn[] = [
  ld(OFFSET_ARCH),
  jeq(AUDIT_ARCH_X86_64, "x86_64", NEXT),
  jeq(AUDIT_ARCH_AARCH64, "aarch64", "kill"),
  ld(OFFSET_NR, "x86_64"),
  { code: JGE_K, k: X32_SYSCALL_BIT, jt: "kill", jf: NEXT },
  jeq(NR.x86_64.socket, "socket", NEXT),
  jeq(NR.x86_64.ioUringSetup, "nosys", "allow"),
  ld(OFFSET_NR, "aarch64"),
  jeq(NR.aarch64.socket, "socket", NEXT),
  jeq(NR.aarch64.ioUringSetup, "nosys", "allow"),
  ld(OFFSET_ARG0_LOW, "socket"),
  jeq(AF_UNIX, "eperm", NEXT),
  jeq(AF_VSOCK, "eperm", "allow"),
  ret(RET_ALLOW, "allow"),
  ret(RET_ERRNO | EPERM, "eperm"),
  ret(RET_ERRNO | ENOSYS, "nosys"),
  ret(RET_KILL_PROCESS, "kill"),
];

/** The program as bubblewrap reads it from its `--seccomp` descriptor. */
export function unixSocketFilter(): Buffer {
  const at = new Map<string, number>();
  PROGRAM.forEach((insn, i) => insn.label && at.set(insn.label, i));
  const offset = (i: number, label: string | undefined): number => {
    if (label === undefined || label === NEXT) return 0;
    const target = at.get(label);
    // Jumps are forward only and fit in a byte: checked here, so a bad edit fails at once rather than in the kernel.
    if (target === undefined || target <= i || target - i - 1 > 255) throw new Error(`seccomp: bad jump to ${label}`);
    return target - i - 1;
  };
  const out = Buffer.alloc(PROGRAM.length * 8);
  PROGRAM.forEach((insn, i) => {
    out.writeUInt16LE(insn.code, i * 8);
    out.writeUInt8(offset(i, insn.jt), i * 8 + 2);
    out.writeUInt8(offset(i, insn.jf), i * 8 + 3);
    out.writeUInt32LE(insn.k >>> 0, i * 8 + 4);
  });
  return out;
}

/** Whether this process's architecture is one the program checks (elsewhere it would kill every command). */
export function seccompSupported(arch: string = process.arch): boolean {
  return arch === "x64" || arch === "arm64";
}
