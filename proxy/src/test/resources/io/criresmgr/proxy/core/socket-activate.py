# Passes a listening Unix socket to a command the way systemd's socket activation does
# (sd_listen_fds(3)): the socket as fd 3, LISTEN_FDS=1, LISTEN_PID=<the command's pid>, and keeps
# the socket open across restarts of the command, as cri-resource-manager.socket does.
#   socket-activate.py SOCKET LOG COMMAND...     (COMMAND's output is appended to LOG)
# Commands on stdin, one per line: "start" runs COMMAND and answers "pid N"; "wait" waits for it
# to exit and answers "exit STATUS". End of input kills a running command and exits.
import os, signal, socket, sys

path, log, command = sys.argv[1], sys.argv[2], sys.argv[3:]
if os.path.exists(path):
    os.unlink(path)
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
listener.bind(path)
os.chmod(path, 0o660)
listener.listen(4096)
child = None
for line in sys.stdin:
    if line.strip() == "start":
        child = os.fork()
        if child == 0:
            if listener.fileno() != 3:
                os.dup2(listener.fileno(), 3)
            os.set_inheritable(3, True)  # Python opens sockets close-on-exec
            out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            os.dup2(out, 1)
            os.dup2(out, 2)
            os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
            env = dict(os.environ, LISTEN_FDS="1", LISTEN_PID=str(os.getpid()),
                       LISTEN_FDNAMES="cri-resource-manager.socket")
            os.execvpe(command[0], command, env)
        print("pid", child, flush=True)
    elif line.strip() == "wait":
        _, status = os.waitpid(child, 0)
        child = None
        print("exit", os.waitstatus_to_exitcode(status), flush=True)
if child:
    os.kill(child, signal.SIGKILL)
    os.waitpid(child, 0)
