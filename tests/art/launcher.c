// art-app: an app process on the real ART 10, as the phone double runs one.
//
//   art-app [--name PROCESS] [--debuggable] [--data DIR] [-Xmx…] CLASSPATH MAINCLASS [ARGS…]
//
// The process starts ART with JNI_CreateJavaVM (no boot image: libcore's dex is the boot class
// path, the switch interpreter runs everything), names itself PROCESS as Android names an app's
// process (its command line and its comm), runs MAINCLASS.main(ARGS) on a thread of its own, and
// keeps its main thread for what Android's ActivityThread does on an app's main thread when the
// system asks, here over a Unix socket in the abstract namespace, `heaptui-art-app-<pid>`, one
// request a connection, from root, the shell's uid (2000) or the app's own uid only (the
// permission checks ActivityManager makes):
//
//   dumpheap GC BITMAPS PATH (+ the output file's descriptor, as `am dumpheap` passes it)
//       ActivityThread.handleDumpHeap: with GC=1, System.gc(), runFinalization(), gc(); with
//       BITMAPS a format (`-` for none; `am dumpheap -b FORMAT`, Android 15),
//       android.graphics.Bitmap.dumpAll(FORMAT) when the app has that class; then
//       VMDebug.dumpHprofData(PATH, fd) writes ART's dump into the descriptor, and
//       Bitmap.dumpAll(null) lets the compressed pictures go.
//   attach-agent LIBRARY=OPTIONS
//       What `cmd activity attach-agent` makes the app do: ART loads LIBRARY and calls its
//       Agent_OnAttach(JavaVM*, OPTIONS, NULL) on this thread. (ART's own path goes through its
//       JVMTI plugin, which the host build lacks; its debuggable check is made here.)
//   meminfo
//       The app's part of `dumpsys meminfo PID`, in Android 10's layout: its smaps' PSS by kind,
//       the Java heap from Runtime (total, free), the native heap from mallinfo, the Objects.
//   gc
//       Runtime.gc() (a test's way to ask for a collection without touching the app's code).
//   stat NAME
//       VMDebug.getRuntimeStat(NAME): ART's own counters (`art.gc.gc-count`, `art.gc.gc-time`…).
//
// Each answer is text ending with a line `ok` or `error: WHY`. When MAINCLASS.main returns the
// process exits 0 (1 when it threw).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <jni.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static JavaVM* vm;
static int debuggable;
static const char* process_name = "app";

static void fail(const char* what) {
  fprintf(stderr, "art-app: %s\n", what);
  exit(2);
}

// The runtime's folder: this program is its bin/art-app.
static char* runtime_root(void) {
  static char root[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", root, sizeof root - 1);
  if (n <= 0) fail("cannot read /proc/self/exe");
  root[n] = 0;
  for (int up = 0; up < 2; up++) {
    char* slash = strrchr(root, '/');
    if (!slash) fail("the launcher is not in the runtime's bin/");
    *slash = 0;
  }
  return root;
}

static void ensure_dir(const char* path) {
  if (mkdir(path, 0700) != 0 && errno != EEXIST) {
    fprintf(stderr, "art-app: mkdir %s: %s\n", path, strerror(errno));
    exit(2);
  }
}

// --- What bionic gives an app and glibc does not.

// An app's uid has no line in /etc/passwd, and libcore asks for one when ART starts
// (System.initUnchangeableSystemProperties: user.name, user.home). Bionic answers for app uids
// itself (u0_aNNN, home /data, shell /system/bin/sh); so does this, for any uid glibc does not
// know. (This executable's definition takes the calls of the libraries it loads.)
int getpwuid_r(uid_t uid, struct passwd* pwd, char* buf, size_t len, struct passwd** result) {
  static int (*real)(uid_t, struct passwd*, char*, size_t, struct passwd**);
  if (!real) real = (int (*)(uid_t, struct passwd*, char*, size_t, struct passwd**))dlsym(RTLD_NEXT, "getpwuid_r");
  int rc = real ? real(uid, pwd, buf, len, result) : ENOENT;
  if (rc != 0 || *result) return rc;
  int n = uid >= 10000 ? snprintf(buf, len, "u0_a%u", uid - 10000) : snprintf(buf, len, "%u", uid);
  if (n < 0 || (size_t)n + 1 + 5 + 1 + 15 > len) return ERANGE;
  pwd->pw_name = buf;
  pwd->pw_passwd = buf + n;  // ""
  pwd->pw_dir = strcpy(buf + n + 1, "/data");
  pwd->pw_shell = strcpy(buf + n + 7, "/system/bin/sh");
  pwd->pw_gecos = buf + n;
  pwd->pw_uid = uid;
  pwd->pw_gid = uid;
  *result = pwd;
  return 0;
}

// --- What the main thread serves.

// A growing answer.
struct text {
  char* s;
  size_t len, cap;
};

static void add(struct text* t, const char* fmt, ...) {
  va_list a;
  for (;;) {
    va_start(a, fmt);
    int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, a);
    va_end(a);
    if (n < 0) return;
    if (t->s && t->len + n < t->cap) {
      t->len += n;
      return;
    }
    t->cap = (t->cap + n + 1) * 2;
    t->s = realloc(t->s, t->cap);
    if (!t->s) fail("out of memory");
  }
}

// The exception pending on env, described into t (and cleared); 1 when there was one.
static int caught(JNIEnv* env, struct text* t) {
  jthrowable e = (*env)->ExceptionOccurred(env);
  if (!e) return 0;
  (*env)->ExceptionClear(env);
  jclass c = (*env)->FindClass(env, "java/lang/Object");
  jmethodID m = (*env)->GetMethodID(env, c, "toString", "()Ljava/lang/String;");
  jstring s = (*env)->CallObjectMethod(env, e, m);
  const char* chars = s ? (*env)->GetStringUTFChars(env, s, NULL) : NULL;
  add(t, "error: %s\n", chars ? chars : "an exception");
  if (chars) (*env)->ReleaseStringUTFChars(env, s, chars);
  (*env)->ExceptionClear(env);
  return 1;
}

static void runtime_gc(JNIEnv* env) {
  jclass rt = (*env)->FindClass(env, "java/lang/Runtime");
  jobject r = (*env)->CallStaticObjectMethod(env, rt, (*env)->GetStaticMethodID(env, rt, "getRuntime", "()Ljava/lang/Runtime;"));
  (*env)->CallVoidMethod(env, r, (*env)->GetMethodID(env, rt, "gc", "()V"));
}

static jlong runtime_figure(JNIEnv* env, const char* name) {
  jclass rt = (*env)->FindClass(env, "java/lang/Runtime");
  jobject r = (*env)->CallStaticObjectMethod(env, rt, (*env)->GetStaticMethodID(env, rt, "getRuntime", "()Ljava/lang/Runtime;"));
  return (*env)->CallLongMethod(env, r, (*env)->GetMethodID(env, rt, name, "()J"));
}

// android.graphics.Bitmap.dumpAll(format) (format NULL: forget the last), when the app has it.
static void dump_bitmaps(JNIEnv* env, const char* format, struct text* t) {
  jclass bitmap = (*env)->FindClass(env, "android/graphics/Bitmap");
  jmethodID all = bitmap ? (*env)->GetStaticMethodID(env, bitmap, "dumpAll", "(Ljava/lang/String;)V") : NULL;
  if (!all) {
    (*env)->ExceptionClear(env);
    return;
  }
  (*env)->CallStaticVoidMethod(env, bitmap, all, format ? (*env)->NewStringUTF(env, format) : NULL);
  caught(env, t);
}

static void dumpheap(JNIEnv* env, int gc, const char* bitmaps, const char* path, int fd, struct text* t) {
  if (fd < 0) {
    add(t, "error: no file descriptor came with the request\n");
    return;
  }
  if (gc) {
    jclass system = (*env)->FindClass(env, "java/lang/System");
    runtime_gc(env);
    (*env)->CallStaticVoidMethod(env, system, (*env)->GetStaticMethodID(env, system, "runFinalization", "()V"));
    runtime_gc(env);
  }
  if (bitmaps) dump_bitmaps(env, bitmaps, t);
  jclass vmdebug = (*env)->FindClass(env, "dalvik/system/VMDebug");
  jmethodID dump = (*env)->GetStaticMethodID(env, vmdebug, "dumpHprofData", "(Ljava/lang/String;I)V");
  if (!caught(env, t)) {
    (*env)->CallStaticVoidMethod(env, vmdebug, dump, (*env)->NewStringUTF(env, path), (jint)fd);
    if (!caught(env, t)) add(t, "ok\n");
  }
  if (bitmaps) dump_bitmaps(env, NULL, t);
  close(fd);
}

static void attach_agent(const char* spec, struct text* t) {
  if (!debuggable) {
    add(t, "error: Can't attach agent to process that is not debuggable.\n");
    return;
  }
  const char* eq = strchr(spec, '=');
  char* library = strndup(spec, eq ? (size_t)(eq - spec) : strlen(spec));
  const char* options = eq ? eq + 1 : "";
  void* handle = dlopen(library, RTLD_NOW);
  if (!handle) {
    add(t, "error: Unable to dlopen %s: %s\n", library, dlerror());
  } else {
    jint (*on_attach)(JavaVM*, char*, void*) = (jint(*)(JavaVM*, char*, void*))dlsym(handle, "Agent_OnAttach");
    if (!on_attach) {
      add(t, "error: Unable to find Agent_OnAttach in %s\n", library);
    } else {
      jint rc = on_attach(vm, (char*)options, NULL);
      if (rc == 0) add(t, "ok\n");
      else add(t, "error: Agent_OnAttach of %s returned %d\n", library, rc);
    }
  }
  free(library);
}

// Android's meminfo categories by the name of a mapping (android_os_Debug.cpp's load_maps).
static const char* category(const char* name) {
  if (!strcmp(name, "[heap]") || !strncmp(name, "[anon:libc_malloc", 17) || !strncmp(name, "[anon:scudo:", 12))
    return "Native Heap";
  if (!strncmp(name, "[anon:dalvik-main space", 23) || !strncmp(name, "[anon:dalvik-alloc space", 24) ||
      !strncmp(name, "[anon:dalvik-large object space", 31) || !strncmp(name, "[anon:dalvik-free list large object space", 41) ||
      !strncmp(name, "[anon:dalvik-non moving space", 29) || !strncmp(name, "[anon:dalvik-zygote space", 25) ||
      !strncmp(name, "[anon:dalvik-region space", 25))
    return "Dalvik Heap";
  if (!strncmp(name, "[anon:dalvik-", 13)) return "Dalvik Other";
  if (!strncmp(name, "[stack", 6) || !strncmp(name, "[anon:stack_and_tls:", 20)) return "Stack";
  size_t n = strlen(name);
  // Versioned names too (libc.so.6: a host's libraries; a phone's end in .so).
  if ((n > 3 && !strcmp(name + n - 3, ".so")) || strstr(name, ".so.")) return ".so mmap";
  if (n > 4 && !strcmp(name + n - 4, ".jar")) return ".jar mmap";
  if (n > 4 && !strcmp(name + n - 4, ".apk")) return ".apk mmap";
  if (n > 4 && (!strcmp(name + n - 4, ".dex") || !strcmp(name + n - 5, ".odex") || !strcmp(name + n - 5, ".vdex")))
    return ".dex mmap";
  if (n > 4 && !strcmp(name + n - 4, ".oat")) return ".oat mmap";
  if (n > 4 && !strcmp(name + n - 4, ".art")) return ".art mmap";
  if (!strncmp(name, "/dev/", 5)) return "Other dev";
  if (name[0] == '/' || name[0] == '[') return "Other mmap";
  return "Unknown";
}

static const char* CATEGORIES[] = {"Native Heap", "Dalvik Heap", "Dalvik Other", "Stack",     ".so mmap", ".jar mmap",
                                   ".apk mmap",   ".dex mmap",   ".oat mmap",    ".art mmap", "Other dev", "Other mmap",
                                   "Unknown"};
#define NCAT (sizeof CATEGORIES / sizeof *CATEGORIES)

// PSS, private dirty, private clean, swap and RSS (KiB) by category, from /proc/self/smaps.
static void smaps(long sums[NCAT][5]) {
  FILE* f = fopen("/proc/self/smaps", "r");
  if (!f) return;
  char line[4096];
  int cat = NCAT - 1;
  while (fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    char name[4096] = "";
    if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %4095[^\n]", &lo, &hi, name) >= 2 && strchr(line, '-') < strchr(line, ' ')) {
      char* p = name;
      while (*p == ' ') p++;
      const char* c = category(p);
      for (size_t i = 0; i < NCAT; i++)
        if (!strcmp(CATEGORIES[i], c)) cat = i;
      continue;
    }
    long kb;
    if (sscanf(line, "Pss: %ld", &kb) == 1) sums[cat][0] += kb;
    else if (sscanf(line, "Private_Dirty: %ld", &kb) == 1) sums[cat][1] += kb;
    else if (sscanf(line, "Private_Clean: %ld", &kb) == 1) sums[cat][2] += kb;
    else if (sscanf(line, "SwapPss: %ld", &kb) == 1) sums[cat][3] += kb;
    else if (sscanf(line, "Rss: %ld", &kb) == 1) sums[cat][4] += kb;
  }
  fclose(f);
}

static jlong count_instances(JNIEnv* env, const char* class_name) {
  jclass c = (*env)->FindClass(env, class_name);
  if (!c) {
    (*env)->ExceptionClear(env);
    return 0;
  }
  jclass vmdebug = (*env)->FindClass(env, "dalvik/system/VMDebug");
  jmethodID count = (*env)->GetStaticMethodID(env, vmdebug, "countInstancesOfClass", "(Ljava/lang/Class;Z)J");
  jlong n = (*env)->CallStaticLongMethod(env, vmdebug, count, c, JNI_TRUE);
  (*env)->ExceptionClear(env);
  return n;
}

static void meminfo(JNIEnv* env, struct text* t) {
  long sums[NCAT][5] = {{0}};
  smaps(sums);
  long total[5] = {0};
  for (size_t i = 0; i < NCAT; i++)
    for (int k = 0; k < 5; k++) total[k] += sums[i][k];
  jlong java_total = runtime_figure(env, "totalMemory") / 1024, java_free = runtime_figure(env, "freeMemory") / 1024;
  struct mallinfo2 mi = mallinfo2();
  long native_size = (long)(mi.arena + mi.hblkhd) / 1024, native_alloc = (long)(mi.uordblks + mi.hblkhd) / 1024;
  long native_free = (long)mi.fordblks / 1024;
  add(t, "** MEMINFO in pid %d [%s] **\n", getpid(), process_name);
  add(t, "                   Pss  Private  Private  SwapPss     Heap     Heap     Heap\n");
  add(t, "                 Total    Dirty    Clean    Dirty     Size    Alloc     Free\n");
  add(t, "                ------   ------   ------   ------   ------   ------   ------\n");
  for (size_t i = 0; i < NCAT; i++) {
    add(t, "%13s %8ld %8ld %8ld %8ld", CATEGORIES[i], sums[i][0], sums[i][1], sums[i][2], sums[i][3]);
    if (i == 0) add(t, " %8ld %8ld %8ld", native_size, native_alloc, native_free);
    if (i == 1) add(t, " %8ld %8ld %8ld", (long)java_total, (long)(java_total - java_free), (long)java_free);
    add(t, "\n");
  }
  add(t, "%13s %8ld %8ld %8ld %8ld %8ld %8ld %8ld\n\n", "TOTAL", total[0], total[1], total[2], total[3],
      native_size + (long)java_total, native_alloc + (long)(java_total - java_free), native_free + (long)java_free);
  long code = sums[4][1] + sums[4][2] + sums[5][1] + sums[5][2] + sums[6][1] + sums[6][2] + sums[7][1] + sums[7][2] +
              sums[8][1] + sums[8][2];
  long java = sums[1][1] + sums[1][2] + sums[9][1] + sums[9][2];
  long native = sums[0][1] + sums[0][2], stack = sums[3][1];
  long private_total = total[1] + total[2];
  long other = private_total - java - native - code - stack;
  add(t, " App Summary\n                       Pss(KB)\n                        ------\n");
  add(t, "           Java Heap: %8ld\n         Native Heap: %8ld\n                Code: %8ld\n", java, native, code);
  add(t, "               Stack: %8ld\n            Graphics: %8ld\n       Private Other: %8ld\n", stack, 0L, other);
  add(t, "              System: %8ld\n\n", total[0] - private_total);
  add(t, "           TOTAL PSS: %8ld            TOTAL RSS: %8ld       TOTAL SWAP PSS: %8ld\n\n", total[0], total[4], total[3]);
  add(t, " Objects\n");
  add(t, "               Views: %8ld         ViewRootImpl: %8ld\n", (long)count_instances(env, "android/view/View"), 0L);
  add(t, "         AppContexts: %8ld           Activities: %8ld\n\n", 0L,
      (long)count_instances(env, "android/app/Activity"));
  add(t, "ok\n");
}

// Reads one request (a line, and a descriptor when one came) from c.
static ssize_t receive(int c, char* buf, size_t cap, int* fd) {
  char control[CMSG_SPACE(sizeof(int))];
  struct iovec io = {buf, cap - 1};
  struct msghdr m = {.msg_iov = &io, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
  ssize_t n = recvmsg(c, &m, MSG_CMSG_CLOEXEC);
  if (n <= 0) return n;
  buf[n] = 0;
  for (struct cmsghdr* h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h))
    if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS) memcpy(fd, CMSG_DATA(h), sizeof(int));
  char* nl = strchr(buf, '\n');
  if (nl) *nl = 0;
  return n;
}

// Answers one request into t; returns the descriptor still to close (-1 when it was used).
static int answer(JNIEnv* env, const char* req, int fd, struct text* t) {
  if (!strncmp(req, "dumpheap ", 9) && (req[9] == '0' || req[9] == '1') && req[10] == ' ') {
    // BITMAPS: a word up to the next space, `-` for none.
    const char* format = req + 11;
    const char* space = strchr(format, ' ');
    char bitmaps[16] = "";
    if (space && space != format && (size_t)(space - format) < sizeof bitmaps) {
      memcpy(bitmaps, format, space - format);
      dumpheap(env, req[9] == '1', strcmp(bitmaps, "-") ? bitmaps : NULL, space + 1, fd, t);
    } else {
      add(t, "error: dumpheap GC BITMAPS PATH\n");
      if (fd >= 0) close(fd);
    }
    return -1;
  }
  if (!strncmp(req, "attach-agent ", 13)) {
    attach_agent(req + 13, t);
  } else if (!strcmp(req, "meminfo")) {
    meminfo(env, t);
  } else if (!strcmp(req, "gc")) {
    runtime_gc(env);
    if (!caught(env, t)) add(t, "ok\n");
  } else if (!strncmp(req, "stat ", 5)) {
    jclass vmdebug = (*env)->FindClass(env, "dalvik/system/VMDebug");
    jmethodID stat = (*env)->GetStaticMethodID(env, vmdebug, "getRuntimeStat", "(Ljava/lang/String;)Ljava/lang/String;");
    jstring value = (*env)->CallStaticObjectMethod(env, vmdebug, stat, (*env)->NewStringUTF(env, req + 5));
    if (!caught(env, t)) {
      const char* chars = value ? (*env)->GetStringUTFChars(env, value, NULL) : NULL;
      add(t, "%s\nok\n", chars ? chars : "");
      if (chars) (*env)->ReleaseStringUTFChars(env, value, chars);
    }
  } else {
    add(t, "error: unknown request\n");
  }
  return fd;
}

static void serve(JNIEnv* env) {
  int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un a = {.sun_family = AF_UNIX};
  int len = snprintf(a.sun_path + 1, sizeof a.sun_path - 1, "heaptui-art-app-%d", getpid());
  if (s < 0 || bind(s, (struct sockaddr*)&a, offsetof(struct sockaddr_un, sun_path) + 1 + len) != 0 || listen(s, 8) != 0)
    fail("cannot listen on its control socket");
  for (;;) {
    int c = accept4(s, NULL, NULL, SOCK_CLOEXEC);
    if (c < 0) continue;
    struct ucred who;
    socklen_t wl = sizeof who;
    struct text t = {0};
    char req[8192];
    int fd = -1;
    if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &who, &wl) != 0 || (who.uid != 0 && who.uid != 2000 && who.uid != getuid())) {
      add(&t, "error: uid %d may not ask process %d\n", (int)who.uid, getpid());
    } else if (receive(c, req, sizeof req, &fd) <= 0) {
      add(&t, "error: no request\n");
    } else if ((*env)->PushLocalFrame(env, 256) != 0) {
      (*env)->ExceptionClear(env);
      add(&t, "error: out of local references\n");
    } else {
      fd = answer(env, req, fd, &t);
      (*env)->PopLocalFrame(env, NULL);
    }
    if (fd >= 0) close(fd);
    if (t.s) {
      for (size_t off = 0; off < t.len;) {
        ssize_t w = write(c, t.s + off, t.len - off);
        if (w <= 0) break;
        off += w;
      }
    }
    free(t.s);
    close(c);
  }
}

// --- The app's main.

struct app {
  const char* main_class;
  int argc;
  char** argv;
};

static void* run_main(void* arg) {
  struct app* app = arg;
  JNIEnv* env;
  JavaVMAttachArgs attach = {JNI_VERSION_1_6, "app-main", NULL};
  if ((*vm)->AttachCurrentThread(vm, &env, &attach) != JNI_OK) fail("cannot attach the app's thread");
  char* dotted = strdup(app->main_class);
  for (char* p = dotted; *p; p++)
    if (*p == '.') *p = '/';
  jclass c = (*env)->FindClass(env, dotted);
  jmethodID m = c ? (*env)->GetStaticMethodID(env, c, "main", "([Ljava/lang/String;)V") : NULL;
  if (!m) {
    (*env)->ExceptionDescribe(env);
    fflush(stdout);
    _exit(1);
  }
  jobjectArray args = (*env)->NewObjectArray(env, app->argc, (*env)->FindClass(env, "java/lang/String"), NULL);
  for (int i = 0; i < app->argc; i++) (*env)->SetObjectArrayElement(env, args, i, (*env)->NewStringUTF(env, app->argv[i]));
  (*env)->CallStaticVoidMethod(env, c, m, args);
  int code = 0;
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionDescribe(env);
    code = 1;
  }
  fflush(stdout);
  fflush(stderr);
  _exit(code);
}

int main(int argc, char** argv) {
  const char* data = getenv("ANDROID_DATA");
  const char* xmx = NULL;
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (!strcmp(argv[i], "--name") && i + 1 < argc) process_name = argv[++i];
    else if (!strcmp(argv[i], "--debuggable")) debuggable = 1;
    else if (!strcmp(argv[i], "--data") && i + 1 < argc) data = argv[++i];
    else if (!strncmp(argv[i], "-Xmx", 4)) xmx = argv[i];
    else fail("usage: art-app [--name PROCESS] [--debuggable] [--data DIR] [-Xmx…] CLASSPATH MAINCLASS [ARGS…]");
  }
  if (argc - i < 2) fail("usage: art-app [--name PROCESS] [--debuggable] [--data DIR] [-Xmx…] CLASSPATH MAINCLASS [ARGS…]");
  const char* root = runtime_root();
  // What ART reads from the environment: a data folder of the app's own (writable), and the
  // system's folders (empty here: no boot image, no time zone data).
  char dir[PATH_MAX], lib[PATH_MAX], boot[PATH_MAX + 64], bootloc[PATH_MAX + 64], cp[PATH_MAX + 32];
  if (!data) {
    snprintf(dir, sizeof dir, "/tmp/art-app-%d", getpid());
    data = dir;
  }
  ensure_dir(data);
  static char sub[4][PATH_MAX];
  const char* names[4] = {"ANDROID_DATA", "ANDROID_ROOT", "ANDROID_RUNTIME_ROOT", "ANDROID_TZDATA_ROOT"};
  for (int k = 0; k < 4; k++) {
    snprintf(sub[k], sizeof sub[k], "%s/%s", data, k == 0 ? "data" : k == 1 ? "system" : k == 2 ? "runtime" : "tzdata");
    ensure_dir(sub[k]);
    setenv(names[k], sub[k], 1);
  }
  // ART 10 requires a loaded library named libnativehelper.so (it looks with dl_iterate_phdr).
  snprintf(lib, sizeof lib, "%s/lib/libnativehelper.so", root);
  if (!dlopen(lib, RTLD_NOW | RTLD_GLOBAL)) fail(dlerror());
  snprintf(boot, sizeof boot, "-Xbootclasspath:%s/boot/core-libcore10.jar", root);
  snprintf(bootloc, sizeof bootloc, "-Xbootclasspath-locations:%s/boot/core-libcore10.jar", root);
  snprintf(cp, sizeof cp, "-Djava.class.path=%s", argv[i]);
  JavaVMOption options[8] = {{boot, NULL}, {bootloc, NULL}, {"-Xint", NULL}, {"-Ximage:/nonexistent/boot.art", NULL},
                             {"-Xnoimage-dex2oat", NULL}, {cp, NULL}};
  int n = 6;
  if (xmx) options[n++].optionString = (char*)xmx;
  JavaVMInitArgs init = {JNI_VERSION_1_6, n, options, JNI_FALSE};
  JNIEnv* env;
  if (JNI_CreateJavaVM(&vm, &env, &init) != JNI_OK) fail("JNI_CreateJavaVM failed");
  // Named as Android names an app's process: its command line is the name alone, its comm the
  // name's last 15 characters.
  struct app app = {strdup(argv[i + 1]), argc - i - 2, NULL};
  app.argv = malloc(sizeof(char*) * (app.argc + 1));
  for (int k = 0; k < app.argc; k++) app.argv[k] = strdup(argv[i + 2 + k]);
  char* name = strdup(process_name);
  process_name = name;
  char* end = argv[argc - 1] + strlen(argv[argc - 1]);
  memset(argv[0], 0, end - argv[0]);
  strncpy(argv[0], name, end - argv[0]);
  size_t nl = strlen(name);
  prctl(PR_SET_NAME, nl > 15 ? name + nl - 15 : name);
  pthread_t t;
  if (pthread_create(&t, NULL, run_main, &app) != 0) fail("cannot start the app's thread");
  serve(env);
  return 0;
}
