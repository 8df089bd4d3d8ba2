// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IFillVerifier} from "./interfaces/IFillVerifier.sol";
import {OrderData, Settlement} from "./interfaces/IntentTypes.sol";
import {IOriginSettler} from "./interfaces/IOriginSettler.sol";
import {IntentHash} from "./libraries/IntentHash.sol";

/// @title OriginSettler: the escrow of lock → fill → settle.
/// @notice An intent account locks tokens here; the filler is repaid only when the fill verifier accepts a
/// proof of the destination fill; if nothing is settled by `fillDeadline + grace`, anyone can return the
/// tokens to the order's refund recipient. No admin; each order changes status once.
contract OriginSettler is IOriginSettler, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    /// @notice Longest allowed time from open to fillDeadline: keeps `fillDeadline + grace` far from overflow
    /// and stops an order from locking funds for an unbounded time.
    uint256 public constant MAX_FILL_WINDOW = 30 days;

    /// @notice The verifier that decides whether an order was filled.
    IFillVerifier public immutable verifier;
    /// @notice Seconds after fillDeadline during which only settle is possible (covers attestation delay).
    uint256 public immutable grace;

    /// @inheritdoc IOriginSettler
    mapping(bytes32 orderId => Status) public orderStatus;

    /// @notice The fill deadline is further away than MAX_FILL_WINDOW.
    error FillDeadlineTooFar(uint256 maxFillDeadline, uint256 fillDeadline);

    /// @param verifier_ The fill verifier.
    /// @param grace_ Seconds after the fill deadline before refunds open.
    constructor(IFillVerifier verifier_, uint256 grace_) {
        verifier = verifier_;
        grace = grace_;
    }

    /// @inheritdoc IOriginSettler
    function orderIdOf(OrderData calldata orderData) public view returns (bytes32) {
        return IntentHash.orderId(orderData, block.chainid, address(this));
    }

    /// @inheritdoc IOriginSettler
    function open(OrderData calldata orderData) external nonReentrant returns (bytes32 orderId) {
        if (orderData.depositor != msg.sender) revert DepositorMismatch(orderData.depositor, msg.sender);
        if (orderData.inputAmount == 0) revert ZeroAmount();
        if (block.timestamp > orderData.fillDeadline) {
            revert FillDeadlinePassed(orderData.fillDeadline, block.timestamp);
        }
        if (orderData.fillDeadline > block.timestamp + MAX_FILL_WINDOW) {
            revert FillDeadlineTooFar(block.timestamp + MAX_FILL_WINDOW, orderData.fillDeadline);
        }
        orderId = orderIdOf(orderData);
        _requireStatus(orderId, Status.None);
        orderStatus[orderId] = Status.Open;

        IERC20 token = IERC20(orderData.inputToken);
        uint256 before = token.balanceOf(address(this));
        token.safeTransferFrom(msg.sender, address(this), orderData.inputAmount);
        uint256 received = token.balanceOf(address(this)) - before;
        if (received != orderData.inputAmount) revert ShortTransfer(orderData.inputAmount, received);
        emit OrderOpened(orderId, msg.sender, orderData);
    }

    /// @inheritdoc IOriginSettler
    function settle(OrderData calldata orderData, address repaymentAddr, bytes calldata proof)
        external
        nonReentrant
    {
        bytes32 orderId = orderIdOf(orderData);
        _requireStatus(orderId, Status.Open);
        _settle(orderData, orderId, repaymentAddr, proof);
    }

    /// @inheritdoc IOriginSettler
    function settleBatch(Settlement[] calldata settlements) external nonReentrant returns (uint256 settled) {
        if (settlements.length == 0) revert EmptyBatch();
        for (uint256 i = 0; i < settlements.length; ++i) {
            Settlement calldata s = settlements[i];
            bytes32 orderId = orderIdOf(s.orderData);
            Status status = orderStatus[orderId];
            // Over already: a batch sent again after a crash, or racing a single settle or a refund.
            if (status == Status.Settled || status == Status.Refunded) {
                emit SettlementSkipped(orderId, status);
                continue;
            }
            _requireStatus(orderId, Status.Open);
            _settle(s.orderData, orderId, s.repaymentAddr, s.proof);
            ++settled;
        }
    }

    /// @inheritdoc IOriginSettler
    function refund(OrderData calldata orderData) external nonReentrant {
        bytes32 orderId = orderIdOf(orderData);
        _requireStatus(orderId, Status.Open);
        uint256 refundableAfter = orderData.fillDeadline + grace;
        if (block.timestamp <= refundableAfter) revert RefundTooEarly(refundableAfter, block.timestamp);
        orderStatus[orderId] = Status.Refunded;
        IERC20(orderData.inputToken).safeTransfer(orderData.refundRecipient, orderData.inputAmount);
        emit OrderRefunded(orderId);
    }

    /// @dev Pays an Open order's locked amount to `repaymentAddr` once the verifier accepts the proof.
    function _settle(OrderData calldata orderData, bytes32 orderId, address repaymentAddr, bytes calldata proof)
        private
    {
        (bool valid, address filler) =
            verifier.verifyFill(orderData.destChainId, orderData.destSettler, orderId, repaymentAddr, proof);
        if (!valid) revert FillNotVerified(orderId);
        orderStatus[orderId] = Status.Settled;
        IERC20(orderData.inputToken).safeTransfer(repaymentAddr, orderData.inputAmount);
        emit OrderSettled(orderId, filler, repaymentAddr);
    }

    function _requireStatus(bytes32 orderId, Status expected) private view {
        Status actual = orderStatus[orderId];
        if (actual != expected) revert InvalidStatus(orderId, expected, actual);
    }
}
