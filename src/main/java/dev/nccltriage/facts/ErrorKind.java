package dev.nccltriage.facts;

/** The closed set of error signatures the log parser recognises. */
public enum ErrorKind {
  IBV_REG_MR("ibv_reg_mr"),
  IBV_REG_DMABUF_MR("ibv_reg_dmabuf_mr"),
  IBV_MODIFY_QP("ibv_modify_qp"),
  IBV_OPEN_DEVICE("ibv_open_device"),
  IBV_OTHER("ibv_call"),
  IB_DEVICE_UNUSABLE("ib_device_unusable"),
  IB_NO_IP_INTERFACE("ib_no_ip_interface"),
  COMPLETION("completion_error"),
  ASYNC_EVENT("ib_async_event"),
  GID("gid_lookup"),
  LIBIBVERBS_MISSING("libibverbs_missing"),
  NET_PLUGIN_LOAD("net_plugin_load"),
  NET_PLUGIN_INIT("net_plugin_init"),
  NET_NOT_FOUND("net_not_found"),
  NET_NONE("net_none"),
  SOCKET_NO_INTERFACE("socket_no_interface"),
  SYSTEM_ERROR("nccl_system_error"),
  CONNECT("connect_failed"),
  REMOTE_ERROR("remote_error"),
  CUDA_FAILURE("cuda_failure"),
  INVALID_RANK("invalid_rank"),
  DUPLICATE_GPU("duplicate_gpu"),
  SHM_ALLOC("shm_alloc"),
  PLUGIN_CQ("net_plugin_cq_error");

  private final String id;

  ErrorKind(String id) {
    this.id = id;
  }

  public String id() {
    return id;
  }
}
