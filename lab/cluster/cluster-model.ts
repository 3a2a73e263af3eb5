// The simulated cluster's objects as its state file stores them (lab/cluster/, a TEST DOUBLE): nodes,
// pods, PodDisruptionBudgets and the state that holds them. Types only, in a module of their own so that
// the state file's reader and writer (cluster-state.ts) and the controllers that work on the objects
// (pods.ts, pdb.ts, revision.ts) can all name them without importing one another.
import type { ClusterLease } from './leases.js';

export interface ClusterNodeAddress {
  type: 'InternalIP' | 'Hostname';
  address: string;
}

export interface ClusterNode {
  name: string;
  /** Allocated from the cluster CIDR on first registration, kept on later ones. */
  podCIDR: string;
  ready: boolean;
  /** Cordoned. */
  unschedulable: boolean;
  addresses: ClusterNodeAddress[];
  /** First registration (ISO time): the node's AGE. */
  registeredAt: string;
  /** Last registration or status change (ISO time). */
  updatedAt?: string;
  /** `master` for the control plane, none for workers. */
  roles?: string[];
  os?: 'linux' | 'windows';
  kubeletVersion?: string;
  osImage?: string;
  kernelVersion?: string;
  containerRuntime?: string;
  /** Test knob (ready.ts): the node's kubelet never reports Ready again, whatever its services do. */
  neverReady?: boolean;
  /** The revision of its last change (revision.ts). */
  resourceVersion?: string;
}

export interface ClusterState {
  version: 1;
  /** The cluster's pod network (kube-controller-manager --cluster-cidr); nodes get a /24 each. */
  clusterCIDR: string;
  /** The service network (--service-cluster-ip-range). */
  serviceCIDR: string;
  /** kube-system/kube-dns's cluster IP. */
  dnsServiceIP: string;
  /** Keyed by node name. */
  nodes: Record<string, ClusterNode>;
  /** Keyed `namespace/name` (pods.ts); absent in a state written before pods were modelled. */
  pods?: Record<string, ClusterPod>;
  /** PodDisruptionBudgets, keyed `namespace/name` (pdb.ts). */
  pdbs?: Record<string, ClusterPdb>;
  /** coordination.k8s.io Leases, keyed `namespace/name` (leases.ts). */
  leases?: Record<string, ClusterLease>;
  /** Counter behind the generated pod names and uids (pods.ts), so runs are reproducible. */
  podSeq?: number;
  /** The cluster's revision, as etcd's: the last resourceVersion given out (revision.ts). */
  revision?: number;
}

export interface PodOwner {
  kind: 'ReplicaSet' | 'DaemonSet';
  name: string;
}

export interface ClusterPod {
  name: string;
  namespace: string;
  /** Unset: Pending (no node could take it). */
  nodeName?: string;
  /** None: a bare pod, which drain refuses without --force. */
  owner?: PodOwner;
  labels: Record<string, string>;
  /** An emptyDir volume: drain refuses the pod without --delete-emptydir-data. */
  emptyDir?: boolean;
  /** Matched against the node's labels, e.g. {"kubernetes.io/os": "windows"}. */
  nodeSelector?: Record<string, string>;
  /** Test knob: false keeps the pod unready on a Ready node (a crash-looping pod). Default true. */
  ready?: boolean;
  /** When a replacement's containers are up (ISO time); absent: since it was made. */
  startedAt?: string;
  podIP?: string;
  uid: string;
  createdAt: string;
  /** The revision of its last change (revision.ts). */
  resourceVersion?: string;
}

export interface ClusterPdb {
  name: string;
  namespace: string;
  /** A count, or a percentage such as "50%". Exactly one of minAvailable and maxUnavailable. */
  minAvailable?: number | string;
  maxUnavailable?: number | string;
  /** matchLabels. */
  selector: Record<string, string>;
  createdAt: string;
  /** The revision of its last change (revision.ts). */
  resourceVersion?: string;
}
