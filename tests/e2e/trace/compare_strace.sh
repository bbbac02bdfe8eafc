#!/bin/sh
# compare_strace.sh [--native-probe P [--twin TWIN TWIN_MIN]] [--stdin FILE]
#                   [--name NAME] [--root DIR | --chroot DIR] [--as NAME]
#                   [--setup CMD] [--opts OPTS] MIN SYSGATE GUEST REF [ARG]...
#
# Trace GUEST under `SYSGATE -f` and its native twin REF (the same program
# for i386/x86_64, the -m64 build for x32) under `strace -f`, normalise
# both and report the share of identical lines:
#
#   trace-compare NAME: 47/50 lines identical (94%)
#
# Fails when it is below MIN percent (or when either run fails to start).
# --native-probe P: P is run natively first; when it does not exit 0 the
# reference cannot run on this host (an i386 one on a kernel without IA32
# emulation: ENOEXEC): with --twin, TWIN (the x86_64 build of the same
# source) is the reference instead and TWIN_MIN the floor, as for x32;
# without it the comparison is skipped with exit status 77.
# Normalising (the parts that differ between any two runs, even natively):
#   - strace's own lines ("[ Process PID=... ]", "strace: ...", -q) and the
#     first execve of both (a twin's path is not the guest's)
#   - "[pid N] " prefixes and <unfinished ...>/<... resumed> splits, which
#     depend on timing: a split call is joined back into one line; and the
#     interleaving of tasks: each task's lines are kept in order, tasks in
#     the order they first appear
#   - a task's SIGCHLD deliveries after its first, and the sigreturn
#     after each (how many a parent takes depends on its children's
#     timing)
#   - pids and tids (numbered in order of appearance; in the lines of
#     calls that take or return one, signals and ends, elsewhere only in
#     strings and pid=/tid fields: fcntl(5773, ...) is a descriptor,
#     mmap(..., 12288, ...) a size), addresses (0x and 5+
#     hex digits), TCP ports of 1024 and up, times (a child's CPU ticks
#     in SIGCHLD's siginfo too, times()'s result, timevals, time()), the CPU
#     getcpu gives, -y's pipe and socket inodes, what reads
#     of /proc files return (and a write of those bytes right after, and
#     the position lseek/_llseek finds in one), the bytes of git's index
#     (each file's times and inode),
#     /* N vars */ counts,
#     getrandom's bytes, sysinfo's and statfs's live values and the run's
#     directory
#   - against a twin of another ABI (--abi-sizes): set_robust_list's and
#     get_robust_list's length, a 4-byte sigset (a word on x32: strace
#     decodes it; on x86_64 it is shown as its address), a directory's
#     lseek position (ext4's hash: 32 bits for a 32-bit ABI), getrandom's
#     count, mprotect(PROT_READ)'s RELRO length,
#     control messages' lengths (cmsg_len, msg_controllen), SIOCGIFCONF's
#     ifc_len (struct ifreq: 32 or 40 bytes)
# The lines of tests/e2e/trace/strace_allow.txt (by-design differences,
# each with its reason in docs/trace-format.md) are taken out of both.
# --as NAME: the program is copied as NAME, not prog (busybox's applet
# comes from argv[0]: --as busybox with the applet as the first ARG).
# --setup CMD: `sh -c CMD` in each run's directory first (files to copy).
# --opts OPTS: more trace options, the same words for strace and sysgate
# ("-e trace=write", "-y").
# --timeline: sysgate writes --trace-timeline=FILE instead of -o; the file
# must pass check_timeline.py (the trace-event format), and its slices'
# and instants' names (the strace lines) are compared as the trace would.
# --ff: both run with -ff -o DIR/t (a file per task, t.TID); each file's
# lines get their TID in front, as -f -o would, and are compared so; the
# number of files must be the same.
# --chroot DIR: GUEST is a program inside DIR (an i386 root) run natively
# in a chroot into DIR (a private mount namespace with /proc, /dev, /sys;
# root only, else skipped with 77) and under `sysgate -L DIR`, both from
# a directory under DIR/tmp; the native trace starts at the program's
# own execve (chroot's and sh's calls before it are dropped). DIR is
# bound onto itself first, so that its / is a mount root as the host's /
# is under -L (statx's STATX_ATTR_MOUNT_ROOT, df), and it gets the host's
# passwd, group, nsswitch.conf and localtime when it has none, which -L
# would find on the host.
# On a mismatch the unified diff of the normalised traces is printed.
set -u

stdin=/dev/null name= root= probe= twin= twin_min= sizes= as=prog setup= chroot= opts= ff= timeline=
while [ $# -gt 0 ]; do
	case $1 in
	--stdin) stdin=$2; shift 2 ;;
	--name) name=$2; shift 2 ;;
	--native-probe) probe=$2; shift 2 ;;
	--twin) twin=$2 twin_min=$3; shift 3 ;;
	# --abi-sizes: REF is a twin of another ABI (x32 against its -m64
	# build): the sizes that follow from the ABI alone are normalised
	--abi-sizes) sizes=1; shift ;;
	# --root DIR: GUEST runs under `sysgate -L DIR`; the native run is REF
	# started by DIR's own ld.so (--library-path DIR's libraries), and DIR
	# is taken out of the paths it prints
	--root) root=$2; shift 2 ;;
	--chroot) chroot=$2; shift 2 ;;
	--as) as=$2; shift 2 ;;
	--setup) setup=$2; shift 2 ;;
	--opts) opts=$2; shift 2 ;;
	--ff) ff=1; shift ;;
	--timeline) timeline=1; shift ;;
	*) break ;;
	esac
done
[ $# -ge 4 ] || { echo "usage: $0 [--stdin F] [--name N] MIN SYSGATE GUEST REF [ARG]..." >&2; exit 2; }
min=$1 sysgate=$2 guest=$3 ref=$4
shift 4
: "${name:=$(basename "$guest")}"
command -v strace >/dev/null || { echo "trace-compare $name: no strace, skipped"; exit 77; }
if [ -n "$probe" ]; then
	[ -x "$probe" ] || { echo "trace-compare $name: no probe program $probe" >&2; exit 2; }
	"$probe" >/dev/null 2>&1
	st=$?
	if [ "$st" -ne 0 ] && [ -n "$twin" ]; then
		echo "trace-compare $name: this host cannot run the native reference" \
			"($(basename "$probe") exits $st natively: no IA32 emulation);" \
			"comparing with the x86_64 twin $(basename "$twin") instead"
		ref=$twin min=$twin_min name="$name-vs-x86_64-twin" sizes=1
	elif [ "$st" -ne 0 ]; then
		echo "trace-compare $name: skipped: this host cannot run the native reference" \
			"($(basename "$probe") exits $st natively: a kernel without IA32 emulation cannot exec i386 programs)"
		exit 77
	fi
fi

# no core files from the runs (a program that dies of SIGSEGV), so the
# "(core dumped)" question has the same answer for both
ulimit -c 0 2>/dev/null
if [ -n "$chroot" ]; then
	[ -x "$chroot/bin/sh" ] || { echo "trace-compare $name: no root $chroot, skipped"; exit 77; }
	chroot_cmd=$(PATH=$PATH:/usr/sbin:/sbin command -v chroot)
	if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null || [ -z "$chroot_cmd" ]; then
		echo "trace-compare $name: skipped: the native run needs root, unshare and chroot"
		exit 77
	fi
	# where the native run mounts /proc, /dev and /sys; where both run
	mkdir -p "$chroot/proc" "$chroot/dev" "$chroot/sys" "$chroot/tmp"
	# `sysgate -L` finds a path the root lacks on the host: the root gets
	# the host's user and group files, so that both runs read the same
	for f in passwd group nsswitch.conf localtime; do
		[ -e "$chroot/etc/$f" ] || cp "/etc/$f" "$chroot/etc/$f" 2>/dev/null
	done
	work=$(mktemp -d "$chroot/tmp/sgcmp.XXXXXX")
	inside=${work#"$chroot"}
else
	work=$(mktemp -d)
fi
trap 'rm -rf "$work"' EXIT
# (each run's output goes to ref.out / sgt.out next to its directory, so
# that -y shows the same normalised path, WORK.out, for both)
mkdir "$work/ref" "$work/sgt"
allow=$(dirname "$0")/strace_allow.txt
if [ -n "$setup" ]; then
	(cd "$work/ref" && sh -c "$setup") && (cd "$work/sgt" && sh -c "$setup") ||
		{ echo "trace-compare $name: setup failed" >&2; exit 1; }
fi

if [ -n "$chroot" ]; then
	# strace follows chroot and the root's sh into the program (whose
	# own execve is the third that succeeds, after chroot's and sh's)
	(unshare -m --propagation private sh -c '
		r=$1 out=$2 dir=$3; shift 3
		mount --bind "$r" "$r" &&
		mount --rbind /proc "$r/proc" && mount --rbind /dev "$r/dev" &&
		mount --rbind /sys "$r/sys" &&
		exec env -i PATH=/usr/bin:/bin strace -f -q -o "$out" "$@"' sh \
		"$chroot" "$work/native.raw" "$inside/ref" "$chroot_cmd" "$chroot" /bin/sh -c \
		'cd "$1" && shift && unset PWD OLDPWD && exec "$@"' sh "$inside/ref" "$guest" "$@" \
		<"$stdin" >"$work/ref.out" 2>&1)
	(cd "$work/sgt" && env -i PATH=/usr/bin:/bin "$sysgate" ${SYSGATE_EXEC:+--exec=$SYSGATE_EXEC} -f -L "$chroot" -o ../sg.raw "$guest" "$@" \
		<"$stdin" >../sgt.out 2>&1)
elif [ -n "$root" ]; then
	[ -x "$root/lib/ld-linux.so.2" ] || { echo "trace-compare $name: no root $root, skipped"; exit 77; }
	(cd "$work/ref" && env -i PATH=/usr/bin:/bin strace -f -q -o ../native.raw \
		"$root/lib/ld-linux.so.2" --library-path "$root/lib/i386-linux-gnu:$root/usr/lib/i386-linux-gnu" \
		"$ref" "$@" <"$stdin" >../ref.out 2>&1)
	(cd "$work/sgt" && env -i PATH=/usr/bin:/bin "$sysgate" ${SYSGATE_EXEC:+--exec=$SYSGATE_EXEC} -f -L "$root" -o ../sg.raw "$guest" "$@" \
		<"$stdin" >../sgt.out 2>&1)
else
	# copies, so /proc/self/exe names WORK/<dir>/prog in both runs
	cp "$ref" "$work/ref/$as"
	cp "$guest" "$work/sgt/$as"
	rawref=../native.raw rawsgt=../sg.raw
	if [ -n "$ff" ]; then
		mkdir "$work/ff.ref" "$work/ff.sgt"
		opts="$opts -f" rawref=../ff.ref/t rawsgt=../ff.sgt/t
	fi
	# shellcheck disable=SC2086
	(cd "$work/ref" && env -i PATH=/usr/bin:/bin strace -f -q $opts -o $rawref "./$as" "$@" \
		<"$stdin" >../ref.out 2>&1)
	sgout="-o $rawsgt"
	[ -n "$timeline" ] && sgout="--trace-timeline=../tl.json"
	# shellcheck disable=SC2086
	(cd "$work/sgt" && env -i PATH=/usr/bin:/bin "$sysgate" ${SYSGATE_EXEC:+--exec=$SYSGATE_EXEC} -f $opts $sgout "./$as" "$@" \
		<"$stdin" >../sgt.out 2>&1)
	if [ -n "$timeline" ]; then
		python3 "$(dirname "$0")/check_timeline.py" "$work/tl.json" --lines "$work/sg.raw" ||
			{ echo "trace-compare $name: the timeline is not valid trace-event JSON" >&2; exit 1; }
	fi
	if [ -n "$ff" ]; then
		# each task's file, its tid before each line, tids in order
		for side in ref:native sgt:sg; do
			d=$work/ff.${side%%:*}
			for f in $(ls "$d" | sort -t. -k2 -n); do
				sed "s/^/${f#t.} /" "$d/$f"
			done >"$work/${side#*:}.raw"
		done
		nref=$(ls "$work/ff.ref" | wc -l) nsgt=$(ls "$work/ff.sgt" | wc -l)
		if [ "$nref" != "$nsgt" ]; then
			echo "trace-compare $name: -ff: $nsgt files, strace wrote $nref" >&2
			exit 1
		fi
	fi
fi

# One call per line (prefixes gone, split calls joined), then the parts
# that differ between any two runs replaced by placeholders (perl-base is
# part of every Debian system).
normalise() {
	SKIP_EXECS=${2:-} ALLOW=$allow perl -e '
	my (%open, %ids, $n, %task, @order, @allow, %chld, %chld_ret);
	if (open(my $a, "<", $ENV{ALLOW})) {
		while (<$a>) {
			next if /^\s*(#|$)/;
			chomp;
			s/\s+#.*//;
			push @allow, qr/^(?:$_)/;
		}
	}
	my $skip = $ENV{SKIP_EXECS} || 0;
	while (<>) {
		chomp;
		# "[pid N] " on a terminal, "N   " with -o
		my $pid = s/^\[pid +(\d+)\] // || s/^(\d+) +// ? $1 : 0;
		$ids{$pid} //= "PID" . ++$n if $pid;
		next if /^(\[ Process PID=|strace: )/;
		if (s/ <unfinished \.\.\.>$//) { $open{$pid} = $_; next; }
		if (s/^<\.\.\. \w+ resumed>//) {
			my ($k) = exists $open{$pid} ? ($pid) : (keys %open);
			$_ = delete($open{$k}) . $_ if defined $k;
		}
		if ($skip) {
			# the chroot and sh before the program: up to its execve
			$skip-- if /^execve\(.*\) += 0$/;
			next;
		}
		my $line = $_;
		next if grep { $line =~ $_ } @allow;
		# how many SIGCHLD a parent takes is timing (an exiting child'"'"'s
		# coalesces with one still pending), natively too: a task'"'"'s
		# first stays (one never delivered is seen), the later ones
		# and their handlers'"'"' returns are left out
		if (/^--- SIGCHLD / && $chld{$pid}++) { $chld_ret{$pid} = 1; next; }
		if ($chld_ret{$pid} && /^(?:rt_)?sigreturn\(/) { delete $chld_ret{$pid}; next; }
		push @order, $pid unless $task{$pid};
		push @{$task{$pid}}, $_;
	}
	# each task'"'"'s calls in order, tasks in the order their parent made
	# them (its clone/fork results), depth first; the rest in the order
	# they first appear: how the lines of different tasks interleave,
	# and which child prints first, is timing
	my (@tree, %seen);
	my $walk;
	$walk = sub {
		my ($pid) = @_;
		return if $seen{$pid}++ || !$task{$pid};
		push @tree, $pid;
		for (@{$task{$pid}}) {
			$walk->($1) if /^(?:clone3?|v?fork)\(.*\) += (\d+)$/;
		}
	};
	$walk->($_) for @order;
	# pids numbered in that order too
	($n, %ids) = (0);
	$ids{$_} = "PID" . ++$n for grep { $_ } @tree;
	my @lines = map { @{$task{$_}} } @tree;
	shift @lines if @lines && $lines[0] =~ /^execve\(/;
	for (@lines) {
		# pids: what the calls returning one return
		$ids{$1} //= "PID" . ++$n
			if /^(?:getpid|gettid|getppid|set_tid_address|clone3?|v?fork|wait4|waitid)\(.*\) += (\d+)$/ && $1 > 1;
	}
	my (%fdpath, %dirfd, $live);
	# the calls that take a pid (or a thread id: futex, as pthread_join
	# waits on a word holding one); in other calls a number equal to a
	# pid of the run is no pid (fcntl(5773, ...) is a descriptor)
	my %pidtake = map { $_ => 1 } qw(kill tkill tgkill wait4 waitpid
		getpgid setpgid getsid getpriority setpriority prlimit64
		get_robust_list pidfd_open process_vm_readv process_vm_writev
		kcmp rt_sigqueueinfo rt_tgsigqueueinfo migrate_pages move_pages
		sched_setaffinity sched_getaffinity sched_setparam sched_getparam
		sched_setscheduler sched_getscheduler sched_rr_get_interval
		sched_setattr sched_getattr waitid ptrace futex);
	# and the calls that return one (or a register that held one)
	my %pidret = map { $_ => 1 } qw(getpid gettid getppid getpgid getpgrp
		getsid setsid set_tid_address clone clone3 fork vfork wait4
		waitpid waitid sigreturn rt_sigreturn);
	for (@lines) {
		# what a /proc file holds is live (status, stat), /dev/urandom
		# random: their reads, and the bytes a program copies from
		# one (a write of the same length right after such a read:
		# /proc/self/exe copied, whose bytes are the twin'"'"'s own)
		$fdpath{$2} = $1 if /^(?:open|openat)\(.*?"([^"]*)".*\) += (\d+)$/;
		$dirfd{$1} = 1 if /^(?:open|openat)\(.*O_DIRECTORY.*\) += (\d+)$/;
		my $was_live = $live;
		$live = undef;
		my ($rfd, $rn) = /^read\((\d+), ".*\) += (\d+)$/;
		if (defined $rfd && ($fdpath{$rfd} // "") =~ m#^(/proc/|/dev/u?random$)#) {
			$live = $rn;
			s/^(read\((\d+), )".*\) += \d+$/$1"LIVE", N) = N/;
		}
		# git'"'"'s index records each file'"'"'s times and inode: its bytes
		s/^((?:read|pread64|write)\((\d+), )".*?"(\.\.\.)?, /$1"INDEX"$3, /
			if /^(?:read|pread64|write)\((\d+), "/ && ($fdpath{$1} // "") =~ m#\.git/index(\.lock)?$#;
		# and where in such a file a read stopped
		if (/^(?:_llseek|lseek)\((\d+), / && ($fdpath{$1} // "") =~ m#^/proc/#) {
			s/^(_llseek\(\d+, -?\d+, )\[\d+\]/$1\[POS]/;
			s/^(lseek\(\d+, -?\d+, \w+\) += )\d+$/$1POS/;
		}
		s/^(write\(\d+, )".*"(?:\.\.\.)?, (\d+)\) += \2$/$1"LIVE", N) = N/
			if defined $was_live && /^write\(\d+, ".*"(?:\.\.\.)?, $was_live\) += $was_live$/;
		# (a pid as a whole number, not the 8192 of 8192*1024), where a
		# pid can be: anywhere in the lines of the calls that take or
		# return one, signals and ends; elsewhere only in strings
		# ("/proc/1234/fd", a program printing its pid) and in pid=
		# and tid fields, never as a plain argument (fcntl(5773, ...),
		# mmap(0x..., 12288, ...) are no pids)
		my $pidre = join "|", sort { length $b <=> length $a } keys %ids;
		if ($pidre eq "") {
		} elsif (/^(?:---|\+\+\+) / || (/^(\w+)\(/ && ($pidtake{$1} || $pidret{$1}))) {
			s/(?<![\w.])($pidre)(?![\w*])/$ids{$1}/g;
		} else {
			s/("(?:[^"\\]|\\.)*")/my $q = $1; $q =~ s{(?<![\w.])($pidre)(?![\w*])}{$ids{$1}}g; $q/ge;
			s/(\b(?:pid|si_pid|tid)=|_tid=\[)($pidre)\b/$1$ids{$2}/g;
		}
		s/0x[0-9a-f]{5,}/0xADDR/g;
		s/htons\(\d{4,5}\)/htons(PORT)/g;
		s/tv_sec=\d+, tv_nsec=\d+/tv_sec=T, tv_nsec=T/g;
		s/tv_sec=\d+, tv_usec=\d+/tv_sec=T, tv_usec=T/g;
		s/^(times\(.*\) += )\d+$/$1TICKS/;
		s/^time\(.*/time(NOW) = NOW/;
		s/^getcpu\(\[\d+\]/getcpu([CPU]/;
		s/:\[\d+\]>/:[INODE]>/g;  # -y: pipe:[6077057], socket:[...]
		s/si_utime=\d+, si_stime=\d+/si_utime=T, si_stime=T/g;
		s#/\* \d+ vars \*/#/* N vars */#;
		s/^(getrandom\()"[^"]*"/$1"RANDOM"/;
		s/^sysinfo\(\{[^}]*\}\)/sysinfo({LIVE})/;
		s/\b(f_bfree|f_bavail|f_ffree)=\d+/$1=LIVE/g;
		s/\) +=( |$)/) =$1/;
		if ($ENV{SG_ABI_SIZES}) {
			# what differs between ABIs by definition: the robust list
			# head (3 pointers), glibc'"'"'s pointer-sized random words,
			# the binaries'"'"' RELRO sizes
			s/^(set_robust_list\(0xADDR), \d+\)/$1, HEADSIZE)/;
			s/^(get_robust_list\(.*), \[\d+\]\)/$1, [HEADSIZE])/;
			# strace decodes a sigset of at least a word (4 bytes on
			# x32, 8 on x86_64) and shows a shorter one as its address
			s/\{sigmask=[^,]*, sigsetsize=4\}/{sigmask=SIGSET4, sigsetsize=4}/g;
			s/^(getrandom\("RANDOM"), \d+, (.*\) = )\d+$/$1, N, $2N/;
			s/^(mprotect\(0xADDR), \d+, PROT_READ\)/$1, RELRO, PROT_READ)/;
			# the control message header: 12 bytes (compat) or 16
			s/\b(cmsg_len|msg_controllen)=\d+/$1=CMSGSIZE/g;
			# a directory position (seekdir to telldir'"'"'s): ext4 gives
			# a 32-bit ABI (x32 too) a 32-bit hash, a 64-bit one 64
			s/^(lseek\((\d+)), \d+, SEEK_SET\) = \d+$/$1, DIRPOS, SEEK_SET) = DIRPOS/
				if /^lseek\((\d+),/ && $dirfd{$1};
			# struct ifreq: 32 bytes (compat) or 40
			if (/\bifc_len=/) { s/\bifc_len=\d+/ifc_len=N/; s/ => \d+/ => N/; }
		}
		print "$_\n";
	}' "$1" | sed -e "s#$work/ref#WORK#g" -e "s#$work/sgt#WORK#g" \
		-e "${chroot:+s#$inside/ref#WORK#g}" -e "${chroot:+s#$inside/sgt#WORK#g}" \
		-e "${root:+s#$root/usr/lib/#/lib/#g}" -e "${root:+s#$root##g}"
}

[ -s "$work/native.raw" ] || { echo "trace-compare $name: strace produced nothing" >&2; cat "$work/ref.out" >&2; exit 1; }
[ -s "$work/sg.raw" ] || { echo "trace-compare $name: sysgate produced no trace" >&2; cat "$work/sgt.out" >&2; exit 1; }
export SG_ABI_SIZES=$sizes
normalise "$work/native.raw" "${chroot:+3}" > "$work/native.txt"
normalise "$work/sg.raw" > "$work/sg.txt"

total=$(wc -l < "$work/native.txt")
same=$(diff --unchanged-line-format='=
' --old-line-format='' --new-line-format='' "$work/native.txt" "$work/sg.txt" | wc -l)
[ "$total" -gt 0 ] || total=1
pct=$((100 * same / total))
echo "trace-compare $name: $same/$total lines identical ($pct%)"
if [ "$pct" -lt "$min" ]; then
	diff -u "$work/native.txt" "$work/sg.txt"
	echo "trace-compare $name: below $min%" >&2
	exit 1
fi
[ -n "${SG_TRACE_COMPARE_DIFF:-}" ] && diff -u "$work/native.txt" "$work/sg.txt"
exit 0
