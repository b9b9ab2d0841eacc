// Tries to reach a server on the host's loopback (the port comes on stdin); prints CONNECTED.
const net = require("net");
const port = parseInt(require("fs").readFileSync(0, "utf8"), 10);
const socket = net.connect({ host: "127.0.0.1", port }, () => {
  console.log("CONNECTED", port);
  socket.destroy();
});
socket.on("error", (error) => console.log("refused:", error.code));
socket.setTimeout(2000, () => socket.destroy());
