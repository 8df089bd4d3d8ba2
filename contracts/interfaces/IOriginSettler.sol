// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {OrderData, Settlement} from "./IntentTypes.sol";

/// @title Escrow on the origin chain: lock, then settle to the filler or refund the depositor.
interface IOriginSettler {
    /// @notice Order status; each order moves from Open exactly once.
    enum Status {
        None,
        Open,
        Settled,
        Refunded
    }

    /// @notice The caller is not the order's depositor.
    error DepositorMismatch(address expected, address actual);
    /// @notice The order is not in the status the operation needs.
    error InvalidStatus(bytes32 orderId, Status expected, Status actual);
    /// @notice Fewer tokens arrived than the order says (fee-on-transfer or similar).
    error ShortTransfer(uint256 expected, uint256 actual);
    /// @notice The fill deadline is already over when opening.
    error FillDeadlinePassed(uint256 fillDeadline, uint256 nowTimestamp);
    /// @notice Refund before `fillDeadline + grace`.
    error RefundTooEarly(uint256 refundableAfter, uint256 nowTimestamp);
    /// @notice The fill verifier rejected the proof.
    error FillNotVerified(bytes32 orderId);
    /// @notice The order has a zero input amount.
    error ZeroAmount();
    /// @notice settleBatch was given no settlements.
    error EmptyBatch();

    /// @notice Tokens were locked for `orderId`.
    event OrderOpened(bytes32 indexed orderId, address indexed depositor, OrderData orderData);
    /// @notice The filler was repaid.
    event OrderSettled(bytes32 indexed orderId, address indexed filler, address repaymentAddr);
    /// @notice The depositor's refund recipient was repaid.
    event OrderRefunded(bytes32 indexed orderId);
    /// @notice settleBatch left an order alone because it was already over (Settled or Refunded).
    event SettlementSkipped(bytes32 indexed orderId, Status status);

    /// @notice Locks `inputAmount` of `inputToken` from the caller (who must be the depositor).
    /// @param orderData The order.
    /// @return orderId keccak256(abi.encode(orderData, block.chainid, address(this))).
    function open(OrderData calldata orderData) external returns (bytes32 orderId);

    /// @notice Pays the locked amount to `repaymentAddr` once the verifier accepts the fill proof.
    /// @param orderData The order.
    /// @param repaymentAddr The filler's repayment address (bound by the proof).
    /// @param proof The fill verifier's proof.
    function settle(OrderData calldata orderData, address repaymentAddr, bytes calldata proof) external;

    /// @notice Settles several orders in one transaction, each exactly as `settle` would. An order that is
    /// already over (Settled or Refunded) is skipped with SettlementSkipped, so a batch sent again, or one
    /// racing a single settle or a refund, still settles the rest; any other failure reverts the batch.
    /// @param settlements The orders with their repayment addresses and fill proofs.
    /// @return settled How many orders this call settled (the rest were skipped).
    function settleBatch(Settlement[] calldata settlements) external returns (uint256 settled);

    /// @notice Returns the locked amount to the order's refund recipient once `fillDeadline + grace` has passed.
    /// @param orderData The order.
    function refund(OrderData calldata orderData) external;

    /// @notice The status of an order.
    /// @param orderId The order id.
    /// @return The status.
    function orderStatus(bytes32 orderId) external view returns (Status);

    /// @notice The order id this settler gives `orderData` on this chain.
    /// @param orderData The order.
    /// @return The order id.
    function orderIdOf(OrderData calldata orderData) external view returns (bytes32);
}
